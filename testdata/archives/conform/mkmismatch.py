#!/usr/bin/python3
"""Writes archives whose values are not stored as their descriptors say
(as in some old archives): mismatch-v2 and mismatch-v3. Each metric is
written by pmi with one type, then its descriptor in the .meta is given
another type, so libpcp finds a value block of another type or size than
pmDesc says (or an insitu value for a type that needs a block).

usage: /usr/bin/python3 mkmismatch.py   (in this directory)

Metrics, as "written as -> descriptor says":
  mm.u32.u64 U32 -> U64          mm.u32.double U32 -> DOUBLE
  mm.u32.string U32 -> STRING    mm.u32.aggr U32 -> AGGREGATE
  mm.u32.float U32 -> FLOAT      mm.u32.s32 U32 -> 32
  mm.u64.u32 U64 -> U32          mm.u64.double U64 -> DOUBLE
  mm.u64.string U64 -> STRING    mm.double.u64 DOUBLE -> U64
  mm.double.float DOUBLE -> FLOAT mm.float.u32 FLOAT -> U32
  mm.float.double FLOAT -> DOUBLE mm.string.u32 STRING -> U32
  mm.string.u64 STRING -> U64    mm.string.aggr STRING -> AGGREGATE
  mm.s64.u64 64 -> U64           mm.inst.u64 U32 -> U64, with instances
all instant; counters mm.ctr.u32.u64 U32 -> U64 and mm.ctr.u64.double
U64 -> DOUBLE. Five records, a second apart.
"""
import os
import struct
from pcp import pmi
import cpmapi as c

T0 = 1700000000
T = {"U32": c.PM_TYPE_U32, "U64": c.PM_TYPE_U64, "32": c.PM_TYPE_32, "64": c.PM_TYPE_64,
     "FLOAT": c.PM_TYPE_FLOAT, "DOUBLE": c.PM_TYPE_DOUBLE, "STRING": c.PM_TYPE_STRING,
     "AGGR": c.PM_TYPE_AGGREGATE}
METRICS = [  # name, written, claimed, semantics, values
    ("mm.u32.u64", "U32", "U64", "i", ["7", "4000000000", "0", "1065353216", "2143289344"]),
    ("mm.u32.double", "U32", "DOUBLE", "i", ["1", "2", "3", "4", "5"]),
    ("mm.u32.string", "U32", "STRING", "i", ["65", "16705", "0", "1", "2"]),
    ("mm.u32.aggr", "U32", "AGGR", "i", ["1", "2", "3", "4", "5"]),
    ("mm.u32.float", "U32", "FLOAT", "i", ["1065353216", "1078530011", "0", "2143289344", "1"]),
    ("mm.u32.s32", "U32", "32", "i", ["1", "4294967295", "2147483648", "0", "5"]),
    ("mm.u64.u32", "U64", "U32", "i", ["1", "4294967296", "18446744073709551615", "4607182418800017408", "0"]),
    ("mm.u64.double", "U64", "DOUBLE", "i", ["4607182418800017408", "1", "0", "9221120237041090560", "7"]),
    ("mm.u64.string", "U64", "STRING", "i", ["71748523475265", "0", "1", "2", "3"]),
    ("mm.double.u64", "DOUBLE", "U64", "i", ["1.5", "-2", "0", "1e300", "3.25"]),
    ("mm.double.float", "DOUBLE", "FLOAT", "i", ["1.5", "2", "3", "4", "5"]),
    ("mm.float.u32", "FLOAT", "U32", "i", ["1.5", "2", "-0.5", "1e30", "3"]),
    ("mm.float.double", "FLOAT", "DOUBLE", "i", ["1.5", "2", "3", "4", "5"]),
    ("mm.string.u32", "STRING", "U32", "i", ["hello", "", "a b", "\t", "12345678"]),
    ("mm.string.u64", "STRING", "U64", "i", ["abcdefgh", "x", "", "12345678", "1234567"]),
    ("mm.string.aggr", "STRING", "AGGR", "i", ["hi", "there", "", "x", "y"]),
    ("mm.s64.u64", "64", "U64", "i", ["-1", "5", "0", "7", "9"]),
    ("mm.ctr.u32.u64", "U32", "U64", "c", ["100", "200", "400", "800", "1600"]),
    ("mm.ctr.u64.double", "U64", "DOUBLE", "c", ["100", "200", "400", "800", "1600"]),
]


def write(name, version):
    for ext in (".0", ".index", ".meta"):
        if os.path.exists(name + ext):
            os.remove(name + ext)  # pmi does not overwrite
    log = pmi.pmiLogImport(name)
    log.pmiSetVersion(version)
    log.pmiSetHostname("mm")
    log.pmiSetTimezone("UTC")
    none = log.pmiUnits(0, 0, 0, 0, 0, 0)
    indom = log.pmiInDom(245, 1)
    for i, n in enumerate(["one", "two"]):
        log.pmiAddInstance(indom, n, i)
    ids = {}
    for k, (m, wr, _, sem, _) in enumerate(METRICS):
        ids[m] = log.pmiID(245, 0, k)
        s = c.PM_SEM_COUNTER if sem == "c" else c.PM_SEM_INSTANT
        log.pmiAddMetric(m, ids[m], T[wr], c.PM_INDOM_NULL, s, none)
    ids["mm.inst.u64"] = log.pmiID(245, 1, 0)
    log.pmiAddMetric("mm.inst.u64", ids["mm.inst.u64"], c.PM_TYPE_U32, indom, c.PM_SEM_INSTANT, none)
    for r in range(5):
        for m, _, _, _, vals in METRICS:
            log.pmiPutValue(m, "", vals[r])
        log.pmiPutValue("mm.inst.u64", "one", str(r))
        log.pmiPutValue("mm.inst.u64", "two", str(r * 1000))
        log.pmiWrite(T0 + r, 0)
    log.pmiEnd()
    claims = {ids[m]: T[cl] for m, _, cl, _, _ in METRICS}
    claims[ids["mm.inst.u64"]] = c.PM_TYPE_U64
    patch(name + ".meta", claims)


def patch(path, claims):
    """Gives each descriptor (TYPE_DESC records) the type claims says."""
    data = bytearray(open(path, "rb").read())
    off = 0
    while off + 8 <= len(data):
        length, rtype = struct.unpack(">II", data[off:off + 8])
        if length == 0:
            break
        if rtype == 1:  # TYPE_DESC: pmid, type, indom, sem, units, names
            pmid = struct.unpack(">I", data[off + 8:off + 12])[0]
            if pmid in claims:
                data[off + 12:off + 16] = struct.pack(">i", claims[pmid])
        off += length
    open(path, "wb").write(bytes(data))


write("mismatch-v2", 2)
write("mismatch-v3", 3)
