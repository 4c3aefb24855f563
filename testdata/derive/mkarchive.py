#!/usr/bin/python3
"""Write the small archive the derive goldens are made from.

usage: /usr/bin/python3 testdata/derive/mkarchive.py [OUTDIR]

Writes OUTDIR/golden.json (the archive's contents: metrics, instance
domains and every record, in a form the Go tests read without PCP) and the
PCP archive OUTDIR/golden.{0,meta,index} with the same contents through
PCP's pmi module. OUTDIR defaults to this script's directory. The contents
are fixed: running it twice gives the same JSON and the same records.
"""
import json, os, sys
from pcp import pmi
import cpmapi as c

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
DOMAIN = 40
T0 = 1700000000  # 2023-11-14T22:13:20Z
# record offsets in seconds from T0 (uneven on purpose, for rate())
TIMES = [0, 10, 20, 25, 40, 40.5, 60]
NREC = len(TIMES)

# units as (dimSpace, dimTime, dimCount, scaleSpace, scaleTime, scaleCount)
NONE = (0, 0, 0, 0, 0, 0)
BYTE, KBYTE, MBYTE, GBYTE = [(1, 0, 0, s, 0, 0) for s in range(4)]
NSEC, USEC, MSEC, SEC, MIN, HOUR = [(0, 1, 0, 0, s, 0) for s in range(6)]
COUNT = (0, 0, 1, 0, 0, 0)
def count_x(e): return (0, 0, 1, 0, 0, e)

INDOMS = {
    "40.1": [(0, "sda"), (1, "sdb"), (2, "sdc"), (3, "sdd")],
    "40.2": [(0, "cpu0"), (1, "cpu1"), (2, "cpu2"), (3, "cpu3")],
    "40.3": [(1, "1 init"), (42, "42 bash"), (100, "100 sshd -D")],
    "40.4": [(7, "only")],
}
# which instances of 40.1 have values in each record (in this order)
DISKS = [
    ["sda", "sdb", "sdc"],
    ["sda", "sdb", "sdc"],
    ["sda", "sdb", "sdc"],
    ["sda", "sdc", "sdd"],
    ["sda", "sdc", "sdd"],
    ["sda", "sdb", "sdc", "sdd"],
    ["sda", "sdb", "sdc", "sdd"],
]

METRICS = []  # (name, type, indom, sem, units)
def metric(name, typ, indom, sem, units):
    METRICS.append((name, typ, indom, sem, units))

TYPES = [("i32", "32"), ("u32", "U32"), ("i64", "64"), ("u64", "U64"),
         ("flt", "FLOAT"), ("dbl", "DOUBLE")]
for short, typ in TYPES:
    metric("t.%s.inst" % short, typ, None, "instant", NONE)
    metric("t.%s.disc" % short, typ, None, "discrete", NONE)
    metric("t.%s.ctr" % short, typ, None, "counter", COUNT)

for name, u in [("byte", BYTE), ("kbyte", KBYTE), ("mbyte", MBYTE), ("gbyte", GBYTE)]:
    metric("s." + name, "DOUBLE", None, "instant", u)
for name, u in [("nsec", NSEC), ("usec", USEC), ("msec", MSEC), ("sec", SEC),
                ("min", MIN), ("hour", HOUR)]:
    metric("tm." + name, "DOUBLE", None, "instant", u)
for name, e in [("one", 0), ("k", 3), ("m", 6), ("milli", -3)]:
    metric("cn." + name, "DOUBLE", None, "instant", count_x(e))
metric("r.bps", "DOUBLE", None, "instant", (1, -1, 0, 0, 3, 0))
metric("r.kbps", "DOUBLE", None, "instant", (1, -1, 0, 1, 3, 0))
metric("r.mbph", "DOUBLE", None, "instant", (1, -1, 0, 2, 5, 0))
metric("r.cps", "DOUBLE", None, "instant", (0, -1, 1, 0, 3, 0))
metric("r.kcpm", "DOUBLE", None, "instant", (0, -1, 1, 0, 4, 3))
metric("r.bpms", "U64", None, "instant", (1, -1, 0, 0, 2, 0))
metric("x.bpc", "DOUBLE", None, "instant", (1, 0, -1, 0, 0, 0))
metric("x.mspc", "DOUBLE", None, "instant", (0, 1, -1, 0, 2, 0))
metric("x.cpkb", "DOUBLE", None, "instant", (-1, 0, 1, 1, 0, 0))
metric("x.pbyte", "DOUBLE", None, "instant", (-1, 0, 0, 0, 0, 0))
metric("x.b2", "DOUBLE", None, "instant", (2, 0, 0, 1, 0, 0))
metric("x.persec", "DOUBLE", None, "instant", (0, -1, 0, 0, 3, 0))
metric("x.perms", "DOUBLE", None, "instant", (0, -1, 0, 0, 2, 0))
metric("x.sec2", "DOUBLE", None, "instant", (0, 2, 0, 0, 3, 0))
metric("su.byte32", "U32", None, "instant", BYTE)
metric("su.kbyte64", "U64", None, "instant", KBYTE)
metric("tmi.msec32", "32", None, "instant", MSEC)
metric("tmi.sec64", "64", None, "discrete", SEC)

metric("k.bytes", "U64", None, "counter", BYTE)
metric("k.kbytes", "U32", None, "counter", KBYTE)
metric("k.msec", "U64", None, "counter", MSEC)
metric("k.usec", "U64", None, "counter", USEC)
metric("k.nsec", "U64", None, "counter", NSEC)
metric("k.sec", "U32", None, "counter", SEC)
metric("k.hour", "DOUBLE", None, "counter", HOUR)
metric("k.count", "U64", None, "counter", COUNT)
metric("k.kcount", "U64", None, "counter", count_x(3))
metric("k.none", "U64", None, "counter", NONE)
metric("k.wrap32", "U32", None, "counter", COUNT)
metric("k.wrap64", "U64", None, "counter", COUNT)
metric("k.i32", "32", None, "counter", COUNT)
metric("k.i64", "64", None, "counter", COUNT)
metric("k.flt", "FLOAT", None, "counter", MSEC)
metric("k.dbl", "DOUBLE", None, "counter", MSEC)

metric("d.read", "U64", "40.1", "counter", COUNT)
metric("d.write", "U64", "40.1", "counter", COUNT)
metric("d.rbytes", "U32", "40.1", "counter", KBYTE)
metric("d.busy", "U64", "40.1", "counter", MSEC)
metric("d.util", "DOUBLE", "40.1", "instant", NONE)
metric("d.qlen", "32", "40.1", "instant", COUNT)
metric("d.bytes", "U64", "40.1", "instant", BYTE)
metric("d.flt", "FLOAT", "40.1", "instant", NONE)
metric("d.cap", "U64", "40.1", "discrete", KBYTE)
metric("d.label", "STRING", "40.1", "discrete", NONE)
metric("c.user", "U64", "40.2", "counter", MSEC)
metric("c.sys", "U64", "40.2", "counter", MSEC)
metric("c.freq", "FLOAT", "40.2", "discrete", NONE)
metric("p.rss", "U64", "40.3", "instant", KBYTE)
metric("p.cpu", "U64", "40.3", "counter", MSEC)
metric("o.val", "U32", "40.4", "instant", NONE)

for name, typ in [("zero.u32", "U32"), ("zero.i64", "64"), ("zero.dbl", "DOUBLE"),
                  ("zero.flt", "FLOAT"), ("neg.i32", "32"), ("neg.i64", "64"),
                  ("neg.dbl", "DOUBLE"), ("max.u32", "U32"), ("max.i32", "32"),
                  ("min.i32", "32"), ("max.u64", "U64"), ("max.i64", "64"),
                  ("min.i64", "64"), ("inf", "DOUBLE"), ("ninf", "DOUBLE"),
                  ("nan", "DOUBLE"), ("half", "DOUBLE"), ("flt", "FLOAT"),
                  ("big", "DOUBLE"), ("fltbig", "FLOAT"), ("one.u32", "U32")]:
    metric("v." + name, typ, None, "instant", NONE)
metric("str.s", "STRING", None, "discrete", NONE)
metric("str.e", "STRING", None, "instant", NONE)
metric("m.sometimes", "U32", None, "instant", NONE)
metric("m.setsome", "U64", "40.1", "counter", COUNT)


def values(name, r):
    """The values of metric name in record r: a list of (instance name or
    None, value string)."""
    t = TIMES[r]
    if name.startswith("t."):
        short, sem = name.split(".")[1:]
        base = {"i32": -3, "u32": 7, "i64": -40000000000, "u64": 50000000000,
                "flt": 1.25, "dbl": 2.5}[short]
        if sem == "ctr":
            v = base + r * r * 3 if short not in ("flt", "dbl") else base + r * 1.5
        elif sem == "disc":
            v = base * 2
        else:
            v = base + r if short not in ("flt", "dbl") else base * (r + 1)
        return [(None, str(v))]
    if name.startswith(("s.", "su.", "tm.", "tmi.", "cn.", "r.", "x.")):
        seed = sum(ord(ch) for ch in name) % 17
        if name in ("su.byte32", "su.kbyte64", "tmi.msec32", "tmi.sec64", "r.bpms"):
            return [(None, str(1000 + seed * 10 + r * 3))]
        return [(None, repr(1.5 * (seed + 1) + r * 0.25))]
    if name.startswith("k."):
        if name == "k.wrap32":
            return [(None, str([4294967000, 4294967200, 100, 300, 4294967295, 0, 50][r]))]
        if name == "k.wrap64":
            return [(None, str([18446744073709551000, 18446744073709551600, 10, 20,
                                30, 40, 18446744073709551615][r]))]
        if name == "k.i32":
            return [(None, str([2147483000, 2147483600, -2147483000, -2147482000,
                                -5, 5, 100][r]))]
        if name == "k.i64":
            return [(None, str(-1000 + r * 777))]
        if name in ("k.hour", "k.dbl", "k.flt"):
            return [(None, repr(10.0 + t * 0.5))]
        step = {"k.bytes": 4096, "k.kbytes": 8, "k.msec": 900, "k.usec": 250000,
                "k.nsec": 3 * 10**8, "k.sec": 1, "k.count": 17, "k.kcount": 2,
                "k.none": 5}[name]
        return [(None, str(1000000 + int(t * 2) * step))]
    if name.startswith("d."):
        out = []
        for i, disk in enumerate(DISKS[r]):
            k = ["sda", "sdb", "sdc", "sdd"].index(disk)
            if name == "d.label":
                v = "disk %s #%d" % (disk, k)
            elif name in ("d.util", "d.flt"):
                v = repr(0.125 * (k + 1) + 0.5 * r)
            elif name == "d.qlen":
                v = str(k * 2 - r)
            elif name == "d.cap":
                v = str((k + 1) * 1048576)
            elif name == "d.bytes":
                v = str(512 * (k + 1) * (r + 1))
            else:
                step = {"d.read": 11, "d.write": 5, "d.rbytes": 44, "d.busy": 230}[name]
                v = str(1000 * (k + 1) + int(t * 2) * step * (k + 1))
            out.append((disk, v))
        return out
    if name.startswith("c."):
        out = []
        for k, (_, cpu) in enumerate(INDOMS["40.2"]):
            if name == "c.freq":
                v = repr(1200.5 + k * 100)
            else:
                v = str(5000 * k + int(t * 2) * (300 + 50 * k) * (2 if name == "c.sys" else 1))
            out.append((cpu, v))
        return out
    if name.startswith("p."):
        out = []
        for k, (_, proc) in enumerate(INDOMS["40.3"]):
            v = str((k + 1) * 2048 + r * 4) if name == "p.rss" else str(k * 100 + int(t * 2) * 7)
            out.append((proc, v))
        return out
    if name == "o.val":
        return [("only", str(3 + r))]
    if name.startswith("v."):
        v = {"zero.u32": "0", "zero.i64": "0", "zero.dbl": "0", "zero.flt": "0",
             "neg.i32": "-7", "neg.i64": "-9000000000", "neg.dbl": "-2.5",
             "max.u32": "4294967295", "max.i32": "2147483647", "min.i32": "-2147483648",
             "max.u64": "18446744073709551615", "max.i64": "9223372036854775807",
             "min.i64": "-9223372036854775808", "inf": "inf", "ninf": "-inf",
             "nan": "nan", "half": "0.5", "flt": "3.25", "big": "1e300",
             "fltbig": "3e38", "one.u32": "1"}[name[2:]]
        return [(None, v)]
    if name == "str.s":
        return [(None, "hello world %d" % r)]
    if name == "str.e":
        return [(None, "")]
    if name == "m.sometimes":
        return [(None, str(r))] if r in (0, 1, 4) else []
    if name == "m.setsome":
        return [(d, str(100 + r * 10)) for d in DISKS[r] if d != "sdc"] if r in (0, 1, 2, 5, 6) else []
    raise KeyError(name)


def write_archive(base):
    for ext in (".0", ".meta", ".index"):
        if os.path.exists(base + ext):
            os.remove(base + ext)
    log = pmi.pmiLogImport(base)
    log.pmiSetHostname("goldenhost")
    log.pmiSetTimezone("UTC")
    indoms = {}
    for key, insts in INDOMS.items():
        dom, serial = key.split(".")
        indoms[key] = log.pmiInDom(int(dom), int(serial))
        for inst, iname in insts:
            log.pmiAddInstance(indoms[key], iname, inst)
    for item, (name, typ, indom, sem, units) in enumerate(METRICS):
        log.pmiAddMetric(name, log.pmiID(DOMAIN, 0, item + 1),
                         getattr(c, "PM_TYPE_" + typ),
                         indoms[indom] if indom else c.PM_INDOM_NULL,
                         getattr(c, "PM_SEM_" + sem.upper()), log.pmiUnits(*units))
    for r, t in enumerate(TIMES):
        for name, *_ in METRICS:
            for inst, v in values(name, r):
                log.pmiPutValue(name, inst or "", v)
        log.pmiWrite(T0 + int(t), int(round((t - int(t)) * 1e6)))
    log.pmiEnd()


def atom_str(typ, atom):
    """The exact text of one extracted value."""
    if typ == c.PM_TYPE_32:
        return str(atom.l)
    if typ == c.PM_TYPE_U32:
        return str(atom.ul)
    if typ == c.PM_TYPE_64:
        return str(atom.ll)
    if typ == c.PM_TYPE_U64:
        return str(atom.ull)
    if typ == c.PM_TYPE_FLOAT:
        return repr(float(atom.f))
    if typ == c.PM_TYPE_DOUBLE:
        return repr(atom.d)
    return json.dumps(atom.cp.decode())


def indom_str(indom):
    return "%d.%d" % (indom >> 22 & 0x1ff, indom & 0x3fffff)


def read_back(base):
    """Read the archive with libpcp and describe exactly what it holds."""
    os.environ["PCP_DERIVED_CONFIG"] = ""
    from pcp import pmapi
    ctx = pmapi.pmContext(c.PM_CONTEXT_ARCHIVE, base)
    label = ctx.pmGetArchiveLabel()
    names = [m[0] for m in METRICS]
    pmids = ctx.pmLookupName(names)
    descs = ctx.pmLookupDescs(pmids)
    spec = {"host": label.hostname.decode(), "tz": label.tz.decode(), "metrics": [], "indoms": {},
            "records": []}
    for name, pmid, d in zip(names, pmids, descs):
        u = d.units
        spec["metrics"].append({
            "name": name, "pmid": pmapi.pmContext.pmIDStr(pmid),
            "type": pmapi.pmContext.pmTypeStr(d.type),
            "indom": "" if d.indom == c.PM_INDOM_NULL else indom_str(d.indom),
            "sem": {c.PM_SEM_COUNTER: "counter", c.PM_SEM_INSTANT: "instant",
                    c.PM_SEM_DISCRETE: "discrete"}[d.sem],
            "units": [u.dimSpace, u.dimTime, u.dimCount, u.scaleSpace, u.scaleTime, u.scaleCount]})
        if d.indom != c.PM_INDOM_NULL:
            key = indom_str(d.indom)
            if key not in spec["indoms"]:
                insts, inames = ctx.pmGetInDomArchive(d)
                spec["indoms"][key] = [[i, n] for i, n in zip(insts, inames)]
    ctx.pmSetMode(c.PM_MODE_FORW, label.start, 0)
    while True:
        try:
            res = ctx.pmFetch(pmids)
        except pmapi.pmErr as e:
            if e.args[0] == c.PM_ERR_EOL:
                break
            raise
        ts = res.contents.timestamp
        rec = {"sec": ts.tv_sec, "nsec": ts.tv_usec * 1000, "values": {}}
        for k, (name, d) in enumerate(zip(names, descs)):
            vs = res.contents.get_vset(k).contents
            vals = []
            for j in range(vs.numval):
                v = res.contents.get_vlist(k, j)
                atom = ctx.pmExtractValue(vs.valfmt, v, d.type, d.type)
                inst = ""
                if d.indom != c.PM_INDOM_NULL:
                    inst = ctx.pmNameInDomArchive(d, v.inst)
                v = atom_str(d.type, atom)
                vals.append([inst, json.loads(v) if d.type == c.PM_TYPE_STRING else v])
            if vals:
                rec["values"][name] = vals
        spec["records"].append(rec)
        ctx.pmFreeResult(res)
    return spec


def dump(spec, path):
    """Write spec as JSON with one metric or record per line."""
    lines = ["{"]
    lines.append(' "host": %s, "tz": %s,' % (json.dumps(spec["host"]), json.dumps(spec["tz"])))
    lines.append(' "indoms": ' + json.dumps(spec["indoms"], sort_keys=True) + ",")
    lines.append(' "metrics": [')
    lines.append(",\n".join("  " + json.dumps(m, sort_keys=True) for m in spec["metrics"]))
    lines.append(' ],')
    lines.append(' "records": [')
    lines.append(",\n".join("  " + json.dumps(r, sort_keys=True) for r in spec["records"]))
    lines.append(' ]')
    lines.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    base = os.path.join(OUT, "golden")
    write_archive(base)
    dump(read_back(base), base + ".json")


if __name__ == "__main__":
    main()
