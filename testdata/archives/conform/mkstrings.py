#!/usr/bin/python3
"""Writes the archives of string-valued metrics that pmie's conformance
goldens for comparisons of strings run on (testdata/golden/pmie, the
"strtruth" cases), with PCP's pmi module: two hosts (sa and sb) over the
same 70 seconds, one record every 5 seconds.

usage: /usr/bin/python3 mkstrings.py   (in this directory)

Per host:
  proc.psinfo.sname   instant STRING, process states R S D Z I; processes
                      come and go (000300 from record 4, 000200 gone
                      from record 9, 000400 only in records 6-10)
  proc.psinfo.nice    instant 32 over the same processes
  proc.psinfo.cmd     discrete STRING (one process has an empty string)
  hinv.cpu.vendor     discrete STRING per CPU (cpu1 differs on sb)
  kernel.uname.sysname discrete STRING, no instance domain (missing on sb
                      in records 5-7)
sa has a <mark> after record 10.
"""
import os

from pcp import pmi
import cpmapi as c

T0 = 1700000000  # 2023-11-14T22:13:20Z
N = 15
STEP = 5
STATES = "RSDZIS"


def build(name, host, seed):
    for ext in (".0", ".index", ".meta"):
        if os.path.exists(name + ext):
            os.remove(name + ext)  # pmi does not overwrite
    log = pmi.pmiLogImport(name)
    log.pmiSetHostname(host)
    log.pmiSetTimezone("UTC")
    none = log.pmiUnits(0, 0, 0, 0, 0, 0)
    proc = log.pmiInDom(3, 9)
    cpu = log.pmiInDom(60, 0)
    procs = [(1, "000001 /sbin/init"), (200, "000200 cron"),
             (300, "000300 sshd -D"), (400, "000400 sleep 5")]
    for i, n in procs:
        log.pmiAddInstance(proc, n, i)
    for i in range(3):
        log.pmiAddInstance(cpu, "cpu%d" % i, i)
    STR, S32 = c.PM_TYPE_STRING, c.PM_TYPE_32
    INS, DIS = c.PM_SEM_INSTANT, c.PM_SEM_DISCRETE
    log.pmiAddMetric("proc.psinfo.sname", log.pmiID(3, 8, 2), STR, proc, INS, none)
    log.pmiAddMetric("proc.psinfo.nice", log.pmiID(3, 8, 19), S32, proc, INS, none)
    log.pmiAddMetric("proc.psinfo.cmd", log.pmiID(3, 8, 1), STR, proc, DIS, none)
    log.pmiAddMetric("hinv.cpu.vendor", log.pmiID(60, 18, 1), STR, cpu, DIS, none)
    log.pmiAddMetric("kernel.uname.sysname", log.pmiID(60, 12, 2), STR,
                     c.PM_INDOM_NULL, DIS, none)
    for s in range(N):
        live = [(1, "000001 /sbin/init")]
        if s < 9:
            live.append((200, "000200 cron"))
        if s >= 4:
            live.append((300, "000300 sshd -D"))
        if 6 <= s <= 10:
            live.append((400, "000400 sleep 5"))
        for k, (i, n) in enumerate(live):
            st = STATES[(s * seed + k * 2 + i) % len(STATES)]
            log.pmiPutValue("proc.psinfo.sname", n, st)
            log.pmiPutValue("proc.psinfo.nice", n, str((s + k * seed) % 5 - 2))
            cmd = n.split(" ", 1)[1] if i != 200 else ""
            log.pmiPutValue("proc.psinfo.cmd", n, cmd)
        for i in range(3):
            v = "GenuineIntel" if not (host == "sb" and i == 1) else "AuthenticAMD"
            log.pmiPutValue("hinv.cpu.vendor", "cpu%d" % i, v)
        if not (host == "sb" and 5 <= s <= 7):
            log.pmiPutValue("kernel.uname.sysname", "", "Linux" if s < 12 else "SunOS")
        log.pmiWrite(T0 + s * STEP, 0)
        if host == "sa" and s == 10:
            log.pmiPutMark()
    log.pmiEnd()


build("sa", "sa", 1)
build("sb", "sb", 2)
