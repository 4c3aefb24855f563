#!/usr/bin/env bash
# bench-live.sh: live CPU of ours against real pmie running the same rules
# beside it, against the local pmcd: RULES simple rules (default 250;
# thresholds vary, metrics repeat, as in a large configuration) evaluated
# every 100 msec. Both run at once for SECONDS (default 20), RUNS times
# (default 5); it prints the medians of each one's CPU time (time on a
# processor of all its threads, from /proc/PID/task/*/schedstat) and peak
# RSS, and the median of the ratios ours/real.
#
# usage: scripts/bench-live.sh [SECONDS] [RUNS] [RULES]
#
# $PMIE overrides the pmie to test (default: built from ./cmd/pmie). Needs
# real pmie and a running pmcd.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-20} runs=${2:-5} nrules=${3:-250}
work=$(mktemp -d /tmp/bench-live.XXXXXX)
trap 'rm -rf "$work"' EXIT
. "$root/scripts/pmie-lib.sh"
ours=$(our_pmie "$root" "$work") || exit 1
python3 - "$nrules" >"$work/rules.pmie" <<'PY'
import sys
n = int(sys.argv[1])
t = [
    "r{i} = kernel.all.load #'1 minute' > {a};",
    "r{i} = some_inst ( kernel.percpu.cpu.user > 0.9{i} );",
    "r{i} = some_inst ( disk.dev.total > {a}0 count/sec ) -> print \"disk %i %v\";",
    "r{i} = some_inst ( network.interface.in.bytes > {a} Mbyte/sec ) -> print \"net %i\";",
    "r{i} = mem.util.free < {i} Kbyte -> print \"memory %v\";",
    "r{i} = some_inst ( 100 * filesys.used / filesys.capacity > 99.{i} ) -> print \"fs %i\";",
    "r{i} = kernel.all.pswitch > {a}000 count/sec;",
    "r{i} = some_inst ( kernel.percpu.cpu.sys / ( kernel.percpu.cpu.user + kernel.percpu.cpu.sys + kernel.percpu.cpu.idle ) > 0.9{i} );",
    "r{i} = avg_sample ( kernel.all.load #'1 minute' @0..9 ) > {a};",
    "r{i} = rising ( kernel.all.pswitch > {a}000 count/sec );",
]
print("delta = 100 msec;")
for i in range(n):
    print(t[i % len(t)].format(i=i, a=100 + i))
PY
python3 - "$ours" "$work/rules.pmie" "$secs" "$runs" <<'PY'
import os, signal, statistics, subprocess, sys, time
ours, rules, secs, runs = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
def cpu(pid):
    # time on a processor, in ns, of every thread (schedstat: /proc/PID/stat
    # counts in clock ticks, too coarse for a few ms a second)
    t = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            t += int(open(f"/proc/{pid}/task/{tid}/schedstat").read().split()[0])
        except OSError:
            pass
    return t / 1e9
def hwm(pid):
    for l in open(f"/proc/{pid}/status"):
        if l.startswith("VmHWM:"):
            return int(l.split()[1])
    return 0
R, O = [], []
for _ in range(runs):
    ps = [subprocess.Popen([b, "-c", rules], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
          for b in ("pmie", ours)]
    time.sleep(1)  # both past start-up
    c0 = [cpu(p.pid) for p in ps]
    time.sleep(secs)
    c1 = [cpu(p.pid) for p in ps]
    m = [hwm(p.pid) for p in ps]
    for p in ps:
        p.send_signal(signal.SIGINT)
        p.wait()
    R.append((c1[0] - c0[0], m[0])); O.append((c1[1] - c0[1], m[1]))
med = lambda xs, i: statistics.median(x[i] for x in xs)
for name, xs in (("real pmie", R), ("ours", O)):
    print(f"{name:10} cpu {med(xs,0):.3f} s in {secs:.0f} s  peak RSS {med(xs,1)} KB")
print(f"ratio ours/real (median of pairs): cpu {statistics.median(o[0] / max(r[0], 1e-3) for r, o in zip(R, O)):.3f}")
PY
