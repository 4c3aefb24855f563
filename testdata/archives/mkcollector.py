#!/usr/bin/python3
"""Write the test archive "collector" with PCP's pmi (LOGIMPORT) module:
sixteen minutes of a made-up two-CPU machine ("box"), one sample a
minute, with the metrics the built-in pmieconf templates
(internal/pmieconf/templates) and examples/vmstat read. Names, PMIDs,
types, semantics, units and instance domains are those of PCP's linux
PMDA, looked up from the local pmcd (the embedded collector, pmapi/local,
has the same ones: cmd/pmieconf's tests check). The values follow a
script, so what each rule finds is known:

  minutes  4-8   disk sda 97% busy              (disk.busy)
  minutes  6-9   both CPUs 93% busy             (cpu.busy)
  minutes  7-10  1-minute load average 6.5      (load.average: > 2 x 2 CPUs)
  minutes  9-11  eth0 6 errors/s                (network.errors)
  minutes 10-12  cpu0 alone 99% busy            (percpu.busy)
  minutes 10-15  / (sda1) 95% full              (filesys.full)
  minutes 11-13  5% of memory available         (memory.available)
  minutes 12-14  swap 90% used, 500 pages out/s (swap.full, swap.paging)
  minutes 13-15  CPUs 50% waiting for I/O       (cpu.iowait)
  minutes  3-5   /home (sda2) 95% of inodes     (filesys.inodes)
  minutes 14-15  eth0 50 drops/s                (network.drops)

usage: mkcollector.py OUTDIR   (needs pmcd running with the linux PMDA)
"""
import sys
from pcp import pmi, pmapi
import cpmapi as c

out = sys.argv[1]
T0 = 1767225600  # 2026-01-01T00:00:00Z
STEP = 60        # seconds between samples
N = 16

instances = {
    "kernel.percpu.cpu.user": ["cpu0", "cpu1"],
    "kernel.all.load": ["1 minute", "5 minute", "15 minute"],
    "disk.dev.avactive": ["sda", "nvme0n1"],
    "network.interface.in.errors": ["eth0", "lo"],
    "filesys.full": ["/dev/sda1", "/dev/sda2"],
}
# instance numbers as the linux PMDA gives them
inst_ids = {"1 minute": 1, "5 minute": 5, "15 minute": 15}

names = """hinv.ncpu mem.physmem
kernel.all.cpu.user kernel.all.cpu.nice kernel.all.cpu.sys
kernel.all.cpu.intr kernel.all.cpu.idle kernel.all.cpu.wait.total
kernel.all.cpu.steal
kernel.percpu.cpu.user kernel.percpu.cpu.nice kernel.percpu.cpu.sys
kernel.percpu.cpu.intr kernel.percpu.cpu.idle kernel.percpu.cpu.wait.total
kernel.all.load kernel.all.running kernel.all.blocked
kernel.all.intr kernel.all.pswitch
mem.util.available mem.util.free mem.util.bufmem mem.util.cached
swap.pagesin swap.pagesout swap.used swap.free swap.length
disk.all.read_bytes disk.all.write_bytes disk.dev.avactive
network.interface.in.errors network.interface.out.errors
network.interface.in.drops network.interface.out.drops
filesys.full filesys.usedfiles filesys.maxfiles filesys.freefiles
filesys.mountdir""".split()

during = lambda k, a, b: a <= k <= b


def cpu_rates(k, cpu):
    """ms per second of one CPU in each state, at minute k."""
    user, nice, sys_, intr, wait = 150, 10, 40, 10, 10
    if during(k, 6, 9):
        user, sys_ = 680, 230   # 93% busy with nice and intr
    if during(k, 10, 12):
        if cpu == 0:
            user, sys_ = 800, 170  # 99%
        else:
            user, sys_ = 60, 20    # 10%
    if during(k, 13, 15):
        wait = 500
    idle = 1000 - (user + nice + sys_ + intr + wait)
    return {"user": user, "nice": nice, "sys": sys_, "intr": intr, "wait.total": wait, "idle": idle}


def main():
    ctx = pmapi.pmContext(c.PM_CONTEXT_HOST, "local:")
    log = pmi.pmiLogImport(out + "/collector")
    log.pmiSetHostname("box")
    log.pmiSetTimezone("UTC")
    pmids = ctx.pmLookupName(names)
    descs = ctx.pmLookupDescs(pmids)
    indoms = {}
    for name, d in zip(names, descs):
        indom = d.contents.indom
        log.pmiAddMetric(name, d.contents.pmid, d.contents.type, indom, d.contents.sem, d.contents.units)
        if name in instances and indom not in indoms:
            indoms[indom] = instances[name]
            for i, iname in enumerate(instances[name]):
                log.pmiAddInstance(indom, iname, inst_ids.get(iname, i))

    totals = {}  # counter values so far

    def count(key, rate):
        totals[key] = totals.get(key, 0) + rate * STEP
        return int(totals[key])

    physmem = 8 * 1024 * 1024  # Kbyte
    swaplen = 2 * 1024 ** 3    # byte
    for k in range(N):
        put = []
        put.append(("hinv.ncpu", "", 2))
        put.append(("mem.physmem", "", physmem))
        states = {}
        for cpu in (0, 1):
            for state, ms in cpu_rates(k, cpu).items():
                put.append(("kernel.percpu.cpu." + state, "cpu%d" % cpu, count(("cpu", cpu, state), ms)))
                states[state] = states.get(state, 0) + ms
        for state, ms in states.items():
            put.append(("kernel.all.cpu." + state, "", count(("all", state), ms)))
        put.append(("kernel.all.cpu.steal", "", count("steal", 0)))
        load1 = 6.5 if during(k, 7, 10) else 0.5
        for iname, v in (("1 minute", load1), ("5 minute", 1.5), ("15 minute", 1.0)):
            put.append(("kernel.all.load", iname, v))
        put.append(("kernel.all.running", "", 7 if during(k, 6, 9) else 1))
        put.append(("kernel.all.blocked", "", 3 if during(k, 13, 15) else 0))
        put.append(("kernel.all.intr", "", count("intr", 400)))
        put.append(("kernel.all.pswitch", "", count("pswitch", 900)))
        avail = physmem // 20 if during(k, 11, 13) else physmem // 2
        put.append(("mem.util.available", "", avail))
        put.append(("mem.util.free", "", avail // 4))
        put.append(("mem.util.bufmem", "", 65536))
        put.append(("mem.util.cached", "", avail // 2))
        bad_swap = during(k, 12, 14)
        put.append(("swap.pagesin", "", count("pgin", 20 if bad_swap else 0)))
        put.append(("swap.pagesout", "", count("pgout", 500 if bad_swap else 0)))
        used = swaplen * 9 // 10 if bad_swap else swaplen // 10
        put.append(("swap.used", "", used))
        put.append(("swap.free", "", swaplen - used))
        put.append(("swap.length", "", swaplen))
        put.append(("disk.all.read_bytes", "", count("rdkb", 51200 if during(k, 4, 8) else 120)))
        put.append(("disk.all.write_bytes", "", count("wrkb", 300)))
        put.append(("disk.dev.avactive", "sda", count("sda", 970 if during(k, 4, 8) else 300)))
        put.append(("disk.dev.avactive", "nvme0n1", count("nvme", 50)))
        for m, rate in (("in.errors", 5), ("out.errors", 1), ("in.drops", 40), ("out.drops", 10)):
            bad = during(k, 9, 11) if "errors" in m else during(k, 14, 15)
            put.append(("network.interface." + m, "eth0", count(("eth0", m), rate if bad else 0)))
            put.append(("network.interface." + m, "lo", count(("lo", m), 0)))
        put.append(("filesys.full", "/dev/sda1", 95.0 if during(k, 10, 15) else 70.0))
        put.append(("filesys.full", "/dev/sda2", 40.0))
        for dev, used_files, max_files in (("/dev/sda1", 300000, 6553600),
                                           ("/dev/sda2", 950000 if during(k, 3, 5) else 400000, 1000000)):
            put.append(("filesys.usedfiles", dev, used_files))
            put.append(("filesys.maxfiles", dev, max_files))
            put.append(("filesys.freefiles", dev, max_files - used_files))
        put.append(("filesys.mountdir", "/dev/sda1", "/"))
        put.append(("filesys.mountdir", "/dev/sda2", "/home"))
        for name, inst, v in put:
            log.pmiPutValue(name, inst, str(v))
        log.pmiWrite(T0 + k * STEP, 0)
    del log


main()
