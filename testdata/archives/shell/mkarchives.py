#!/usr/bin/python3
"""Writes the archives the shell-action goldens run on
(testdata/golden/shell-actions), with PCP's pmi module.

usage: /usr/bin/python3 mkarchives.py   (in this directory)

Each has ten minutes of samples, one a minute, of two metrics whose values
are all above zero, so that "some_inst ( shelltest.inst > 0 )" and
"some_host ( shelltest.host > 0 )" are true at every sample:
  shelltest.inst  instant DOUBLE, six instances, values of each size pmie
                  formats differently (0.25, 3.14, 42.5, 97, 1234567,
                  1.5e-05)
  shelltest.host  instant DOUBLE, no instances
benign: host web-01.example.com and instance names such as real systems
        have (sda, /home, eth0.100, cpu3, dm-0, /dev/mapper/vg0-root);
crafted: a host and instance names holding what a shell would act on
        (; $(...) backquotes, quotes, newlines, spaces, globs, backslashes).
"""
from pcp import pmi
import cpmapi as c

T0 = 1700000000  # 2023-11-14T22:13:20Z
N = 11
STEP = 60
VALUES = [0.25, 3.14159, 42.5, 97, 1234567, 1.5e-05]

BENIGN = ["sda", "/home", "eth0.100", "cpu3", "dm-0", "/dev/mapper/vg0-root"]
# unique up to the first space, as PCP wants instance names
CRAFTED = [
    "a;id>PWNED1; b",
    "b$(id>PWNED2)",
    "c`id>PWNED3`",
    "d';id>PWNED4;'it's",
    'e";id>PWNED5;"say "hi"',
    "f\nid>PWNED6\n",
]


def build(name, host, insts):
    log = pmi.pmiLogImport(name)
    log.pmiSetHostname(host)
    log.pmiSetTimezone("UTC")
    none = log.pmiUnits(0, 0, 0, 0, 0, 0)
    indom = log.pmiInDom(245, 0)
    for i, n in enumerate(insts):
        log.pmiAddInstance(indom, n, i)
    log.pmiAddMetric("shelltest.inst", log.pmiID(245, 0, 0), c.PM_TYPE_DOUBLE, indom,
                     c.PM_SEM_INSTANT, none)
    log.pmiAddMetric("shelltest.host", log.pmiID(245, 0, 1), c.PM_TYPE_DOUBLE,
                     c.PM_INDOM_NULL, c.PM_SEM_INSTANT, none)
    for s in range(N):
        for n, v in zip(insts, VALUES):
            log.pmiPutValue("shelltest.inst", n, repr(v * (1 + s / 1000.0)))
        log.pmiPutValue("shelltest.host", "", repr(87.25 + s))
        log.pmiWrite(T0 + s * STEP, 0)
    log.pmiEnd()


build("benign", "web-01.example.com", BENIGN)
build("crafted", "evil;id>PWNED7;'$(id>PWNED8)'", CRAFTED)
