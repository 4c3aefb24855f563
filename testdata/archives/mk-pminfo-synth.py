#!/usr/bin/python3
"""Write the deterministic pminfo test archive with PCP's pmi module.

usage: mk-pminfo-synth.py OUTBASE VERSION   (VERSION 2 or 3)

Metrics of every numeric type and strings, instances that come and go,
a <mark> (a gap in recording), labels at every level of the hierarchy
(context, domain, instance domain, cluster, item, instances; some
optional), and help text for metrics and an instance domain.
"""
import sys
from pcp import pmi
import cpmapi as c

out, version = sys.argv[1], int(sys.argv[2])
log = pmi.pmiLogImport(out)
log.pmiSetVersion(version)
log.pmiSetHostname("synthhost")
log.pmiSetTimezone("AEST-10AEDT,M10.1.0,M4.1.0/3")

D = 245  # a domain of our own
def units(ds, dt, dc, ss, st, sc):
    return log.pmiUnits(ds, dt, dc, ss, st, sc)
none = units(0, 0, 0, 0, 0, 0)
count = units(0, 0, 1, 0, 0, c.PM_COUNT_ONE)
kbyte = units(1, 0, 0, c.PM_SPACE_KBYTE, 0, 0)
rate = units(1, -1, 0, c.PM_SPACE_KBYTE, c.PM_TIME_SEC, 0)
msec = units(0, 1, 0, 0, c.PM_TIME_MSEC, 0)
events = units(0, -1, 1, 0, c.PM_TIME_SEC, 3)

disk = log.pmiInDom(D, 1)
cpu = log.pmiInDom(D, 2)
disks = [("sda", 0), ("sdb", 1), ("sdc", 2), ("nvme0n1", 7)]
cpus = [("cpu0", 0), ("cpu1", 1)]
for n, i in disks:
    log.pmiAddInstance(disk, n, i)
for n, i in cpus:
    log.pmiAddInstance(cpu, n, i)

N = c.PM_INDOM_NULL
metrics = [
    ("synth.disk.reads", (0, 0), c.PM_TYPE_U64, disk, c.PM_SEM_COUNTER, count),
    ("synth.disk.kbytes", (0, 1), c.PM_TYPE_U32, disk, c.PM_SEM_COUNTER, kbyte),
    ("synth.disk.queue", (0, 2), c.PM_TYPE_32, disk, c.PM_SEM_INSTANT, none),
    ("synth.disk.model", (0, 3), c.PM_TYPE_STRING, disk, c.PM_SEM_DISCRETE, none),
    ("synth.cpu.busy", (1, 0), c.PM_TYPE_DOUBLE, cpu, c.PM_SEM_COUNTER, msec),
    ("synth.cpu.temp", (1, 1), c.PM_TYPE_FLOAT, cpu, c.PM_SEM_INSTANT, none),
    ("synth.load", (2, 0), c.PM_TYPE_FLOAT, N, c.PM_SEM_INSTANT, none),
    ("synth.rate", (2, 1), c.PM_TYPE_DOUBLE, N, c.PM_SEM_INSTANT, rate),
    ("synth.events", (2, 2), c.PM_TYPE_64, N, c.PM_SEM_INSTANT, events),
    ("synth.release", (2, 3), c.PM_TYPE_STRING, N, c.PM_SEM_DISCRETE, none),
    ("synth.ncpu", (2, 4), c.PM_TYPE_U32, N, c.PM_SEM_DISCRETE, none),
    ("synth.big", (2, 5), c.PM_TYPE_U64, N, c.PM_SEM_INSTANT, kbyte),
    ("synth.late", (3, 0), c.PM_TYPE_32, N, c.PM_SEM_INSTANT, none),
]
for name, (cl, it), typ, indom, sem, u in metrics:
    log.pmiAddMetric(name, log.pmiID(D, cl, it), typ, indom, sem, u)

def pmid(cl, it):
    return log.pmiID(D, cl, it)

# labels
log.pmiPutLabel(c.PM_LABEL_CONTEXT, 0, 0, "site", 'lab')
log.pmiPutLabel(c.PM_LABEL_DOMAIN, D, 0, "agent", 'synth')
log.pmiPutLabel(c.PM_LABEL_DOMAIN, D, 0, "rack", "12")
log.pmiPutLabel(c.PM_LABEL_INDOM, disk, 0, "device_type", 'block')
log.pmiPutLabel(c.PM_LABEL_CLUSTER, pmid(0, 0), 0, "cluster", 'disk')
log.pmiPutLabel(c.PM_LABEL_ITEM, pmid(2, 1), 0, "units", 'KB/s')
log.pmiPutLabel(c.PM_LABEL_ITEM, pmid(2, 0), 0, "site", 'override')
for n, i in disks:
    log.pmiPutLabel(c.PM_LABEL_INSTANCES, disk, i, "device", n)

# help text
log.pmiPutText(c.PM_TEXT_PMID, c.PM_TEXT_ONELINE, pmid(0, 0), "disk read operations")
log.pmiPutText(c.PM_TEXT_PMID, c.PM_TEXT_HELP, pmid(0, 0),
               "Cumulative count of read operations\nper disk since boot.\n\n")
log.pmiPutText(c.PM_TEXT_PMID, c.PM_TEXT_ONELINE, pmid(2, 0), "one-minute load average")
log.pmiPutText(c.PM_TEXT_PMID, c.PM_TEXT_HELP, pmid(2, 0), "\n\n")
log.pmiPutText(c.PM_TEXT_INDOM, c.PM_TEXT_ONELINE, disk, "set of disks")
log.pmiPutText(c.PM_TEXT_INDOM, c.PM_TEXT_HELP, disk, "All the block devices.")

t0 = 1700000000  # 2023-11-14T22:13:20Z
reads = [100, 2000, 30000, 400000]
kb = [4294967000, 10, 20, 30]
busy = [0.0, 0.0]
for s in range(12):
    if s == 6:
        log.pmiPutMark()  # a gap: pmlogger restarted
    now = s + (4 if s >= 6 else 0)
    # sdc leaves after sample 3, nvme0n1 arrives at sample 5
    present = [d for k, d in enumerate(disks)
               if not (k == 2 and s > 3) and not (k == 3 and s < 5)]
    for (n, i) in present:
        k = [d[0] for d in disks].index(n)
        reads[k] += 10 * (k + 1)
        kb[k] = (kb[k] + 100 * (k + 1)) % (1 << 32)
        log.pmiPutValue("synth.disk.reads", n, str(reads[k]))
        log.pmiPutValue("synth.disk.kbytes", n, str(kb[k]))
        log.pmiPutValue("synth.disk.queue", n, str(s - 3 * k))
        log.pmiPutValue("synth.disk.model", n, "model %s rev %d" % (n, s // 4))
    for k, (n, i) in enumerate(cpus):
        busy[k] += 250.125 * (k + 1)
        log.pmiPutValue("synth.cpu.busy", n, repr(busy[k]))
        log.pmiPutValue("synth.cpu.temp", n, repr(40.5 + s * 0.25 + k))
    log.pmiPutValue("synth.load", "", repr(1.0 / (s + 1)))
    log.pmiPutValue("synth.rate", "", repr(1e10 / 3 * (s + 1)))
    log.pmiPutValue("synth.events", "", str(-(10 ** 12) * s))
    log.pmiPutValue("synth.release", "", "6.%d.0-synth" % (s // 6))
    log.pmiPutValue("synth.ncpu", "", "2")
    log.pmiPutValue("synth.big", "", str(18446744073709551615 - s))
    if s >= 8:
        log.pmiPutValue("synth.late", "", str(s))
    log.pmiHighResWrite(t0 + now, 250000000 * (s % 4))
log.pmiEnd()
