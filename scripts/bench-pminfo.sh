#!/usr/bin/env bash
# usage: scripts/bench-pminfo.sh OUR_PMINFO ARCHIVE [RUNS] [PMINFO ARGS...]
#
# Times real pminfo and ours on ARCHIVE (default arguments: -f), checking
# first that their output is the same, then running them interleaved RUNS
# times (default 21), and prints the medians of wall time and CPU time
# (user+sys) of each and the medians of the ratios ours/real over the
# pairs of runs. Make the benchmark archives with
#
#   python3 ../shared/tools/mkarchive.py /tmp/pmie-bench 2000 200 64 50
#   python3 ../shared/tools/mkarchive.py /tmp/pmie-bench8k 8000 200 64 50
set -u
ours=$1 archive=$2 runs=${3:-21}
shift 2
[ $# -gt 0 ] && shift
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(-f)
real=$(command -v pminfo) || { echo "no real pminfo on PATH" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TZ=UTC "$real" -a "$archive" "${args[@]}" >"$tmp/real" 2>&1
TZ=UTC "$ours" -a "$archive" "${args[@]}" >"$tmp/ours" 2>&1
if cmp -s "$tmp/real" "$tmp/ours"; then
	echo "output: identical ($(wc -l <"$tmp/real") lines)"
else
	echo "output: DIFFERS"
	diff "$tmp/real" "$tmp/ours" | head -20
fi
python3 - "$real" "$ours" "$archive" "$runs" "${args[@]}" <<'PY'
import os, statistics, subprocess, sys, time
real, ours, archive, runs, args = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
env = dict(os.environ, TZ="UTC")
def run(binary):
    t0 = time.perf_counter()
    p = subprocess.Popen([binary, "-a", archive] + args, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, env=env)
    _, _, ru = os.wait4(p.pid, 0)
    return time.perf_counter() - t0, ru.ru_utime + ru.ru_stime
for _ in range(3):  # warm the page cache and the binaries
    run(real); run(ours)
R, O = [], []
for _ in range(runs):
    R.append(run(real)); O.append(run(ours))
med = lambda xs, i: statistics.median(x[i] for x in xs)
for name, xs in (("real pminfo", R), ("ours", O)):
    print(f"{name:12} wall {med(xs,0)*1000:.1f} ms  cpu {med(xs,1)*1000:.1f} ms")
ratio = lambda i: statistics.median(o[i] / max(r[i], 1e-4) for r, o in zip(R, O))
print(f"ratio ours/real (median of pairs): wall {ratio(0):.3f}  cpu {ratio(1):.3f}")
PY
