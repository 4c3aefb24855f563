#!/usr/bin/python3
"""Write the synthetic test archives synth-v2 and synth-v3 with PCP's pmi
(LOGIMPORT) module: every numeric type as a counter (with decreasing and
wrapping values, and unsigned 64-bit values either side of 2^53 and
2^63), instant and discrete values, strings, instances that come and go,
<mark> records, help text and labels, at irregular times with
sub-second parts.

usage: mksynth.py OUTDIR
"""
import sys
from pcp import pmi
import cpmapi as c

out = sys.argv[1]
U32MAX = 2**32 - 1


def make(name, version):
    log = pmi.pmiLogImport(out + "/" + name)
    log.pmiSetVersion(version)
    log.pmiSetHostname("synthhost")
    log.pmiSetTimezone("UTC")
    D = 245
    none = log.pmiUnits(0, 0, 0, 0, 0, 0)
    count = log.pmiUnits(0, 0, 1, 0, 0, c.PM_COUNT_ONE)
    kbyte = log.pmiUnits(1, 0, 0, c.PM_SPACE_KBYTE, 0, 0)
    msec = log.pmiUnits(0, 1, 0, 0, c.PM_TIME_MSEC, 0)
    disks = log.pmiInDom(D, 1)
    for i, n in enumerate(["sda", "sdb", "sdc", "sdd", "sde"]):
        log.pmiAddInstance(disks, n, i)
    NULL = c.PM_INDOM_NULL
    C, I, Di = c.PM_SEM_COUNTER, c.PM_SEM_INSTANT, c.PM_SEM_DISCRETE
    metrics = [
        # name, item, type, indom, sem, units
        ("synth.counter.i32", 1, c.PM_TYPE_32, NULL, C, count),
        ("synth.counter.u32", 2, c.PM_TYPE_U32, disks, C, count),
        ("synth.counter.i64", 3, c.PM_TYPE_64, NULL, C, kbyte),
        ("synth.counter.u64", 4, c.PM_TYPE_U64, disks, C, count),
        ("synth.counter.big", 5, c.PM_TYPE_U64, NULL, C, count),
        ("synth.counter.float", 6, c.PM_TYPE_FLOAT, NULL, C, msec),
        ("synth.counter.double", 7, c.PM_TYPE_DOUBLE, disks, C, msec),
        ("synth.instant.float", 8, c.PM_TYPE_FLOAT, disks, I, none),
        ("synth.instant.double", 9, c.PM_TYPE_DOUBLE, NULL, I, none),
        ("synth.instant.i64", 10, c.PM_TYPE_64, NULL, I, kbyte),
        ("synth.instant.string", 11, c.PM_TYPE_STRING, disks, I, none),
        ("synth.discrete.u32", 12, c.PM_TYPE_U32, NULL, Di, none),
        ("synth.discrete.string", 13, c.PM_TYPE_STRING, NULL, Di, none),
        ("synth.instant.u32", 14, c.PM_TYPE_U32, disks, I, count),
    ]
    for name_, item, typ, indom, sem, units in metrics:
        log.pmiAddMetric(name_, log.pmiID(D, 0, item), typ, indom, sem, units)
    log.pmiPutText(c.PM_TEXT_PMID, c.PM_TEXT_ONELINE, log.pmiID(D, 0, 1), "a 32-bit signed counter")
    log.pmiPutText(c.PM_TEXT_PMID, c.PM_TEXT_HELP, log.pmiID(D, 0, 1),
                   "Goes up, down, and past\nthe 32-bit limit.")
    log.pmiPutText(c.PM_TEXT_PMID, c.PM_TEXT_ONELINE, log.pmiID(D, 0, 4), "per-disk 64-bit counter")
    log.pmiPutText(c.PM_TEXT_INDOM, c.PM_TEXT_ONELINE, disks, "synthetic disks")
    log.pmiPutLabel(c.PM_LABEL_CONTEXT, 0, 0, "site", "lab")
    log.pmiPutLabel(c.PM_LABEL_DOMAIN, D, 0, "agent", "synth")
    log.pmiPutLabel(c.PM_LABEL_ITEM, log.pmiID(D, 0, 2), 0, "role", "counter")
    log.pmiPutLabel(c.PM_LABEL_INDOM, disks, 0, "device_type", "block")
    log.pmiPutLabel(c.PM_LABEL_INSTANCES, disks, 0, "slot", "1")
    log.pmiPutLabel(c.PM_LABEL_INSTANCES, disks, 1, "slot", "2")

    # Which disks have values in each record: they come and go.
    present = [
        [0, 1], [0, 1], [0, 1, 2], [0, 1, 2], [1, 2], [1, 2, 3],
        [1, 2, 3, 4], [2, 3, 4], [0, 2, 3, 4], [0, 2, 4], [0, 4], [0, 4],
        [0, 1, 4], [0, 1, 2, 3, 4], [0, 1, 2, 3, 4], [1, 3],
    ]
    i32 = [100, 250, 175, 2147483000, -2147483000, -5, 10, 400, 380, 900, 901, 902, 2000, 1500, 1600, 1700]
    big = [2**53 - 5, 2**53 + 7, 2**60 + 1, 2**63 - 3, 2**63 + 9, 2**63 + 2**62, 2**64 - 2, 12, 15,
           2**63 - 1, 2**63, 2**53, 2**53 + 1, 2**64 - 1, 0, 3]
    t0 = 1767225600  # 2026-01-01T00:00:00Z
    # irregular steps, in nanoseconds after t0
    steps = [0, 1.25, 2.5, 2.75, 4.0000015, 7.5, 7.6, 10.333333, 12.0, 13.5,
             15.0, 19.999999, 20.25, 24.0, 25.5, 27.125]
    for k, s in enumerate(steps):
        if k == 6 or k == 11:
            # a gap in logging just before this record
            log.pmiPutMark()
        ns = int(round(s * 1e9))
        if version == 2:
            ns = ns // 1000 * 1000
        log.pmiPutValue("synth.counter.i32", "", str(i32[k]))
        log.pmiPutValue("synth.counter.i64", "", str(-10**12 + k * k * 12345678901))
        log.pmiPutValue("synth.counter.big", "", str(big[k]))
        log.pmiPutValue("synth.counter.float", "", "%.6g" % (1000.5 + k * 333.3 - (700 if k == 9 else 0)))
        log.pmiPutValue("synth.instant.double", "", repr(3.0 / (k + 1)))
        log.pmiPutValue("synth.instant.i64", "", str((-1) ** k * k * 1000003))
        if k % 3 != 1:
            log.pmiPutValue("synth.discrete.u32", "", str(7 + k // 3))
        if k in (0, 5, 9, 14):
            log.pmiPutValue("synth.discrete.string", "", "release %d.%d" % (6, k))
        for d in present[k]:
            inst = ["sda", "sdb", "sdc", "sdd", "sde"][d]
            u = (U32MAX - 1000 + k * 400 * (d + 1)) % (U32MAX + 1) if d == 1 else 1000 * d + k * 37 * (d + 1)
            log.pmiPutValue("synth.counter.u32", inst, str(u))
            log.pmiPutValue("synth.counter.u64", inst, str(10**15 * d + k * (k + d) * 999999937))
            log.pmiPutValue("synth.counter.double", inst, repr(0.1 * k * (d + 1) + (5.5 if d == 3 and k > 8 else 0)))
            log.pmiPutValue("synth.instant.float", inst, "%.5g" % (d + k / 7.0))
            log.pmiPutValue("synth.instant.string", inst, "state %s-%d" % ("abcde"[d], k % 4))
            log.pmiPutValue("synth.instant.u32", inst, str(d * 10 + k))
        log.pmiHighResWrite(t0 + ns // 10**9, ns % 10**9)
    log.pmiEnd()


make("synth-v2", 2)
make("synth-v3", 3)
