#!/usr/bin/python3
"""Regenerate the goldens of examples/vmstat's test with libpcp's own
fetchgroups (PCP 6.0.3's python3-pcp), computing and printing the table
as examples/vmstat does:

    /usr/bin/python3 testdata/golden/vmstat/gen.py

writes collector-1m.out and collector-45s.out, the tables of
testdata/archives/collector read every minute and every 45 seconds
(vmstat -a testdata/archives/collector -t 1m, and -t 45s: values
interpolated between the archive's samples).
"""
import os
import sys
import cpmapi as c
from pcp import pmapi

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "..", "..", ".."))

COLUMNS = [  # head, width, metric, scale
    ("r", 2, "kernel.all.running", None),
    ("b", 2, "kernel.all.blocked", None),
    ("swpd", 8, "swap.used", "Kbyte"),
    ("free", 8, "mem.util.free", None),
    ("buff", 7, "mem.util.bufmem", None),
    ("cache", 8, "mem.util.cached", None),
    ("si", 5, "swap.pagesin", None),
    ("so", 5, "swap.pagesout", None),
    ("bi", 6, "disk.all.read_bytes", "Kbyte/sec"),
    ("bo", 6, "disk.all.write_bytes", "Kbyte/sec"),
    ("in", 6, "kernel.all.intr", None),
    ("cs", 6, "kernel.all.pswitch", None),
]
CPU = [
    ("us", ["kernel.all.cpu.user", "kernel.all.cpu.nice"]),
    ("sy", ["kernel.all.cpu.sys", "kernel.all.cpu.intr"]),
    ("id", ["kernel.all.cpu.idle"]),
    ("wa", ["kernel.all.cpu.wait.total"]),
    ("st", ["kernel.all.cpu.steal"]),
]


def table(archive, interval_ms, out):
    fg = pmapi.fetchgroup(c.PM_CONTEXT_ARCHIVE, archive)
    ctx = fg.get_context()
    ctx.pmNewContextZone()
    when = fg.extend_timestamp()
    items = [fg.extend_item(m, c.PM_TYPE_DOUBLE, scale) for _, _, m, scale in COLUMNS]
    cpu = [[fg.extend_item(m, c.PM_TYPE_DOUBLE) for m in ms] for _, ms in CPU]
    ctx.pmSetMode(c.PM_MODE_INTERP, ctx.pmGetArchiveLabel().start, interval_ms)
    fg.fetch()
    head = "    time" + "".join(" %*s" % (w, h) for h, w, _, _ in COLUMNS)
    head += "".join(" %3s" % h for h, _ in CPU)
    out.write(head + "\n")
    while True:
        try:
            fg.fetch()
        except pmapi.pmErr as e:
            if e.args[0] == c.PM_ERR_EOL:
                return
            raise
        line = when().strftime("%H:%M:%S")
        for (_, w, _, _), it in zip(COLUMNS, items):
            try:
                line += " %*.0f" % (w, it())
            except pmapi.pmErr:
                line += " %*s" % (w, "?")
        try:
            sums = [sum(it() for it in its) for its in cpu]
        except pmapi.pmErr:
            sums = None
        total = sum(sums) if sums else 0
        for s in (sums or [0] * len(CPU)):
            line += " %3.0f" % (100 * s / total) if total > 0 else " %3s" % "?"
        out.write(line + "\n")


for name, ms in (("1m", 60000), ("45s", 45000)):
    with open(os.path.join(here, "collector-%s.out" % name), "w") as f:
        table(os.path.join(root, "testdata", "archives", "collector"), ms, f)
