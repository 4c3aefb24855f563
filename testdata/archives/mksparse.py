#!/usr/bin/python3
"""Write the test archive sparse with PCP's pmi (LOGIMPORT) module: one
metric in every record and two logged more rarely (every 9th and every
17th record), as when pmlogger logs metrics at different intervals, so
that interpolating over many records reads far more records than hold
the rare metrics.

usage: mksparse.py OUTDIR
"""
import sys
from pcp import pmi
import cpmapi as c

log = pmi.pmiLogImport(sys.argv[1] + "/sparse")
log.pmiSetHostname("sparsehost")
log.pmiSetTimezone("UTC")
dom = log.pmiInDom(60, 1)
none = log.pmiUnits(0, 0, 0, 0, 0, 0)
count = log.pmiUnits(0, 0, 1, 0, 0, c.PM_COUNT_ONE)
log.pmiAddMetric("sparse.often", log.pmiID(60, 1, 1), c.PM_TYPE_U64, dom, c.PM_SEM_COUNTER, count)
log.pmiAddMetric("sparse.rare9", log.pmiID(60, 1, 2), c.PM_TYPE_DOUBLE, dom, c.PM_SEM_INSTANT, none)
log.pmiAddMetric("sparse.rare17", log.pmiID(60, 1, 3), c.PM_TYPE_32, dom, c.PM_SEM_INSTANT, none)
for i in range(2):
    log.pmiAddInstance(dom, "i%d" % i, i)
for k in range(60):
    for i in range(2):
        log.pmiPutValue("sparse.often", "i%d" % i, "%d" % (k * 7 + i))
        if k % 9 == 0:
            log.pmiPutValue("sparse.rare9", "i%d" % i, "%d.5" % (k * 100 + i))
        if k % 17 == 0:
            log.pmiPutValue("sparse.rare17", "i%d" % i, "%d" % (k * 10 - i))
    log.pmiWrite(1700000000 + k, 0)
log.pmiEnd()
