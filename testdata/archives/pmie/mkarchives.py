#!/usr/bin/python3
"""Writes the small archives pmie's golden tests run on, with PCP's pmi
module: three hosts (alpha, beta, gamma) over the same two minutes, one
record every 5 seconds, with linux-PMDA-like metrics.

usage: /usr/bin/python3 mkarchives.py   (in this directory)

What they hold, per host:
  disk.dev.read        counter U64 count, disks sda sdb sdc; on beta sdc
                       disappears for a while and sdd appears late
  disk.dev.read_bytes  counter U32 Kbyte (wraps on gamma)
  kernel.percpu.cpu.user counter U64 msec, cpu0..cpu3
  kernel.all.load      instant FLOAT, "1 minute" "5 minute" "15 minute"
  mem.util.free        instant U64 Kbyte
  hinv.ncpu            discrete U32
  kernel.uname.sysname discrete STRING
  filesys.used/capacity instant/discrete U64 Kbyte, "/dev/sda1" "/dev/mapper/vg-root"
  network.interface.in.bytes counter U64 byte, lo eth0
  proc.psinfo.rss      instant U64 Kbyte, instances "000001 /sbin/init" "000742 sshd -D"
  sample.late          instant U32, only from the 10th record (alpha)
alpha has a <mark> (gap) after record 15.
"""
import math
from pcp import pmi
import cpmapi as c

T0 = 1700000000  # 2023-11-14T22:13:20Z
N = 25
STEP = 5

def units(ds, dt, dc, ss, st, sc):
    return pmi.pmiLogImport.pmiUnits(ds, dt, dc, ss, st, sc)

def build(name, host, tz, seed):
    log = pmi.pmiLogImport(name)
    log.pmiSetHostname(host)
    log.pmiSetTimezone(tz)
    D = 60
    none = log.pmiUnits(0, 0, 0, 0, 0, 0)
    count = log.pmiUnits(0, 0, 1, 0, 0, c.PM_COUNT_ONE)
    kbyte = log.pmiUnits(1, 0, 0, c.PM_SPACE_KBYTE, 0, 0)
    byte = log.pmiUnits(1, 0, 0, c.PM_SPACE_BYTE, 0, 0)
    msec = log.pmiUnits(0, 1, 0, 0, c.PM_TIME_MSEC, 0)
    disk = log.pmiInDom(D, 1)
    cpu = log.pmiInDom(D, 0)
    load = log.pmiInDom(D, 2)
    fs = log.pmiInDom(D, 5)
    net = log.pmiInDom(D, 3)
    proc = log.pmiInDom(3, 9)
    for i, n in enumerate(["sda", "sdb", "sdc", "sdd"]):
        log.pmiAddInstance(disk, n, i)
    for i in range(4):
        log.pmiAddInstance(cpu, "cpu%d" % i, i)
    for i, n in zip((1, 5, 15), ("1 minute", "5 minute", "15 minute")):
        log.pmiAddInstance(load, n, i)
    for i, n in enumerate(["/dev/sda1", "/dev/mapper/vg-root"]):
        log.pmiAddInstance(fs, n, i)
    for i, n in enumerate(["lo", "eth0"]):
        log.pmiAddInstance(net, n, i)
    for i, n in ((1, "000001 /sbin/init"), (742, "000742 sshd -D")):
        log.pmiAddInstance(proc, n, i)

    def add(m, item, typ, indom, sem, u):
        log.pmiAddMetric(m, log.pmiID(D, item // 1000, item % 1000), typ, indom, sem, u)
    U64, U32, S32, FLT, DBL, STR = (c.PM_TYPE_U64, c.PM_TYPE_U32, c.PM_TYPE_32,
                                    c.PM_TYPE_FLOAT, c.PM_TYPE_DOUBLE, c.PM_TYPE_STRING)
    CTR, INS, DIS = c.PM_SEM_COUNTER, c.PM_SEM_INSTANT, c.PM_SEM_DISCRETE
    add("disk.dev.read", 4000, U64, disk, CTR, count)
    add("disk.dev.read_bytes", 4038, U32, disk, CTR, kbyte)
    add("kernel.percpu.cpu.user", 10000, U64, cpu, CTR, msec)
    add("kernel.all.load", 2000, FLT, load, INS, none)
    add("mem.util.free", 1002, U64, c.PM_INDOM_NULL, INS, kbyte)
    add("hinv.ncpu", 32, U32, c.PM_INDOM_NULL, DIS, none)
    add("kernel.uname.sysname", 12002, STR, c.PM_INDOM_NULL, DIS, none)
    add("filesys.used", 5002, U64, fs, INS, kbyte)
    add("filesys.capacity", 5001, U64, fs, DIS, kbyte)
    add("network.interface.in.bytes", 3000, U64, net, CTR, byte)
    log.pmiAddMetric("proc.psinfo.rss", log.pmiID(3, 8, 23), U64, proc, INS, kbyte)
    if host == "alpha":
        add("sample.late", 29000, U32, c.PM_INDOM_NULL, INS, none)

    rd = [1000 * seed, 500 * seed, 20 * seed, 0]
    rb = [4294967000 - 3000 if host == "gamma" else 100000 * seed, 7000, 9000, 0]
    user = [0, 0, 0, 0]
    nin = [0, 50000 * seed]
    for s in range(N):
        t = T0 + s * STEP
        ph = math.sin(s / 3.0 + seed)
        disks = ["sda", "sdb", "sdc"]
        if host == "beta" and 8 <= s < 14:
            disks = ["sda", "sdb"]
        if host == "beta" and s >= 18:
            disks = ["sda", "sdb", "sdc", "sdd"]
        for i, n in enumerate(["sda", "sdb", "sdc", "sdd"]):
            rd[i] += (i + 1) * 7 * seed + (s % 5) * 13 + (60 if (s + i) % 6 == 0 else 0)
            rb[i] = (rb[i] + 600 * (i + 1) + 40 * s) % 4294967296
            if n in disks:
                log.pmiPutValue("disk.dev.read", n, str(rd[i]))
                log.pmiPutValue("disk.dev.read_bytes", n, str(rb[i]))
        for i in range(4):
            user[i] += int(STEP * 1000 * (0.1 + 0.2 * i + 0.15 * math.sin(s / 2.0 + i + seed)))
            log.pmiPutValue("kernel.percpu.cpu.user", "cpu%d" % i, str(user[i]))
        for n, v in (("1 minute", 2.5 + 2 * ph), ("5 minute", 2 + ph), ("15 minute", 1.5 + 0.5 * ph)):
            log.pmiPutValue("kernel.all.load", n, "%.3f" % v)
        if not (host == "gamma" and 5 <= s < 8):
            log.pmiPutValue("mem.util.free", "", str(int(800000 + 300000 * math.cos(s / 4.0 + seed))))
        log.pmiPutValue("hinv.ncpu", "", "4")
        log.pmiPutValue("kernel.uname.sysname", "", "Linux" if host != "gamma" else "SunOS")
        log.pmiPutValue("filesys.capacity", "/dev/sda1", "1000000")
        log.pmiPutValue("filesys.capacity", "/dev/mapper/vg-root", "5000000")
        log.pmiPutValue("filesys.used", "/dev/sda1", str(500000 + 20000 * s * seed))
        log.pmiPutValue("filesys.used", "/dev/mapper/vg-root", str(4400000 + 5000 * s))
        nin[0] += 1000 + 10 * s
        nin[1] += int(20000 * seed * (1.5 + ph))
        log.pmiPutValue("network.interface.in.bytes", "lo", str(nin[0]))
        log.pmiPutValue("network.interface.in.bytes", "eth0", str(nin[1]))
        log.pmiPutValue("proc.psinfo.rss", "000001 /sbin/init", str(12000 + s))
        if not (s % 7 == 3):
            log.pmiPutValue("proc.psinfo.rss", "000742 sshd -D", str(5000 + 100 * seed * s))
        if host == "alpha" and s >= 10:
            log.pmiPutValue("sample.late", "", str(s * s))
        log.pmiWrite(t, 0)
        if host == "alpha" and s == 15:
            log.pmiPutMark()
    log.pmiEnd()

build("alpha", "alpha", "UTC", 1)
build("beta", "beta", "EST-11EST-10,89/2:00,299/2:00", 2)
build("gamma", "gamma", "AEST-10", 3)
