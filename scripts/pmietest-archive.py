#!/usr/bin/python3
"""Write the synthetic input of a pmietest test as real PCP archives.

usage: pmietest-archive.py INPUT.json

INPUT.json is what `pmietest --export DIR` writes for one test (see
cmd/pmietest): a list of hosts, each with the archive base name to write,
its host name and time zone, its sample times, and its metrics (name,
PMID, type, semantics, instance domain, units, instances and one series of
values per instance, null where there is no value). Each host becomes one
archive, written with PCP's pmi module (LOGIMPORT(3)): a record at every
sample time where the host has some value, holding the values present.
"""
import json
import sys

from pcp import pmi

TYPES = {"32": 0, "u32": 1, "64": 2, "u64": 3, "float": 4, "double": 5}
SEMS = {"counter": 1, "instant": 3, "discrete": 4}


def value_text(typ, v):
    """The text pmiPutValue parses back to v."""
    if typ in ("float", "double"):
        return repr(float(v))
    return str(int(v))


def write_host(h):
    log = pmi.pmiLogImport(h["archive"])
    log.pmiSetHostname(h["host"])
    log.pmiSetTimezone(h["timezone"])
    for m in h["metrics"]:
        u = m["units"]
        units = log.pmiUnits(u[0], u[1], u[2], u[3], u[4], u[5])
        indom = 0xffffffff  # PM_INDOM_NULL
        if m["indom"] is not None:
            indom = log.pmiInDom(m["indom"][0], m["indom"][1])
            for inst_id, name in m["instances"]:
                log.pmiAddInstance(indom, name, inst_id)
        pmid = log.pmiID(m["pmid"][0], m["pmid"][1], m["pmid"][2])
        log.pmiAddMetric(m["name"], pmid, TYPES[m["type"]], indom, SEMS[m["semantics"]], units)
    for k, (sec, usec) in enumerate(h["times"]):
        put = 0
        for m in h["metrics"]:
            for (inst_id, name), series in zip(m["instances"], m["series"]):
                if k < len(series) and series[k] is not None:
                    log.pmiPutValue(m["name"], name, value_text(m["type"], series[k]))
                    put += 1
        if put:
            log.pmiWrite(sec, usec)
    log.pmiEnd()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    for h in spec["hosts"]:
        write_host(h)


main()
