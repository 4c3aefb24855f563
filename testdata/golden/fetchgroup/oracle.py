#!/usr/bin/python3
"""Run the fetchgroup scenarios of scenarios.json through libpcp's own
pmFetchGroup (via the pcp.pmapi Python binding) and print every output
location after every fetch, one scenario per output file NAME.golden.

Usage: oracle.py SCENARIOS.json ARCHIVEDIR OUTDIR
"""
import ctypes
import json
import os
import sys

from pcp import pmapi
from cpmapi import (PM_CONTEXT_ARCHIVE, PM_MODE_INTERP, PM_MODE_FORW,
                    PM_ERR_VALUE)

TYPES = {"32": 0, "U32": 1, "64": 2, "U64": 3, "FLOAT": 4, "DOUBLE": 5,
         "STRING": 6, "AGGREGATE": 7, "EVENT": 9}


def sts_str(code):
    if code == 0:
        return "0"
    return "%d:%s" % (code, pmapi.pmContext.pmErrStr(code))


def atom_str(atom, typ):
    if typ == "32":
        return "%d" % atom.l
    if typ == "U32":
        return "%d" % atom.ul
    if typ == "64":
        return "%d" % atom.ll
    if typ == "U64":
        return "%d" % atom.ull
    if typ == "FLOAT":
        return "%.9g" % atom.f
    if typ == "DOUBLE":
        return "%.17g" % atom.d
    if atom.cp is None:
        return "NULL"
    return '"%s"' % atom.cp.decode()


def describe(it):
    s = it["kind"]
    for k in ("metric", "instance", "scale", "type", "maxnum"):
        if k in it:
            s += " %s=%s" % (k, json.dumps(it[k]))
    return s


def register_derived(defs):
    errmsg = ctypes.c_char_p()
    for name, expr in defs:
        pmapi.LIBPCP.pmRegisterDerivedMetric(name.encode(), expr.encode(),
                                             ctypes.byref(errmsg))


def extend_all(fg, sc, out):
    regs = []
    for i, it in enumerate(sc["items"]):
        kind = it["kind"]
        typ = TYPES.get(it.get("type"), 0)
        try:
            if kind == "timespec":
                v = fg.extend_timespec()
            elif kind == "timeval":
                v = fg.extend_timeval()
            elif kind == "item":
                v = fg.extend_item(metric=it["metric"], mtype=typ,
                                   scale=it.get("scale"), instance=it.get("instance"))
            else:
                v = fg.extend_indom(metric=it["metric"], mtype=typ,
                                    scale=it.get("scale"), maxnum=it["maxnum"])
        except pmapi.pmErr as e:
            print("extend [%d] %s: %s" % (i, describe(it), sts_str(e.args[0])), file=out)
            continue
        print("extend [%d] %s: ok" % (i, describe(it)), file=out)
        regs.append((i, it, v))
    return regs


def run(sc, archdir, out):
    register_derived(sc.get("derived", []))
    env = sc.get("env", {})
    os.environ.update(env)
    fg = pmapi.fetchgroup(PM_CONTEXT_ARCHIVE, os.path.join(archdir, sc["archive"]))
    for k in env:
        del os.environ[k]
    ctx = fg.get_context()
    label = ctx.pmGetHighResArchiveLabel()
    start = label.start.tv_sec * 10**9 + label.start.tv_nsec
    origin = start + sc["origin_ns"]
    ts = pmapi.timespec(origin // 10**9, origin % 10**9)
    if sc["mode"] == "interp":
        d = sc["delta_ns"]
        ctx.pmSetModeHighRes(PM_MODE_INTERP, ts, pmapi.timespec(d // 10**9, d % 10**9))
    else:
        ctx.pmSetModeHighRes(PM_MODE_FORW, ts, None)
    print("scenario %s" % sc["name"], file=out)
    regs = extend_all(fg, sc, out)
    for n in range(sc["fetches"]):
        try:
            sts = fg.fetch()
        except pmapi.pmErr as e:
            sts = e.args[0]
        print("fetch %d: %s" % (n, sts_str(sts)), file=out)
        for i, it, v in regs:
            kind = it["kind"]
            if kind == "timespec":
                t = "%d.%09d" % (v.value.tv_sec, v.value.tv_nsec)
                if sts < 0 and v.value.tv_sec != 0:
                    t = "<now>"
                print("  [%d] timespec %s" % (i, t), file=out)
            elif kind == "timeval":
                t = "%d.%06d" % (v.value.tv_sec, v.value.tv_usec)
                if sts < 0 and v.value.tv_sec != 0:
                    t = "<now>"
                print("  [%d] timeval %s" % (i, t), file=out)
            elif kind == "item":
                print("  [%d] sts=%s value=%s" % (i, sts_str(v.sts.value),
                                                  atom_str(v.value, it["type"])), file=out)
            else:
                num = v.num.value
                print("  [%d] sts=%s num=%d" % (i, sts_str(v.sts.value), num), file=out)
                shown = it["maxnum"] if it["maxnum"] <= 5 else num
                for j in range(shown):
                    name = v.inames[j]
                    name = "NULL" if name is None else '"%s"' % name.decode()
                    print("    [%d] inst=%d name=%s sts=%s value=%s" % (
                        j, ctypes.c_int(v.icodes[j]).value, name, sts_str(v.stss[j]),
                        atom_str(v.values[j], it["type"])), file=out)
        if n in sc.get("clear_at", []):
            fg.clear()
            print("clear", file=out)
            regs = extend_all(fg, sc, out)
    del fg


def main():
    scenarios = json.load(open(sys.argv[1]))
    for sc in scenarios:
        with open(os.path.join(sys.argv[3], sc["name"] + ".golden"), "w") as out:
            run(sc, sys.argv[2], out)


if __name__ == "__main__":
    main()
