#!/usr/bin/env bash
# bench-scaling.sh: how our pmie's and real pmie's costs grow with the
# work: the shared tools' bench-vs-pmie.sh (identical output checked;
# interleaved; wall, CPU, peak RSS) on the benchmark archive and rules,
# then with 4 times the samples, 4 times the instances, and 10 times the
# rules (copies of the benchmark rules renamed, their thresholds moved so
# each copy computes its own truths over the same metrics).
#
# usage: scripts/bench-scaling.sh [RUNS]
#
# RUNS pairs each (default 5). The archives are made with the shared
# tools' mkarchive.py in $BENCH_DIR (default /tmp/pmie-scaling) if missing,
# which takes some minutes; the benchmark archive is $BENCH_ARCHIVE
# (default /tmp/pmie-bench, as bench-vs-pmie.sh makes it). $PMIE overrides
# the pmie to test (default: built from ./cmd/pmie); $PMIE_TOOLS the shared
# tools' directory (default: found as scripts/corpus.sh says).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-5}
. "$root/scripts/corpus.sh"
tools=${PMIE_TOOLS:-$(cd "$(corpus_dir "$root")/../tools" && pwd)}
dir=${BENCH_DIR:-/tmp/pmie-scaling}
base=${BENCH_ARCHIVE:-/tmp/pmie-bench}
mkdir -p "$dir"
work=$(mktemp -d /tmp/bench-scaling.XXXXXX)
trap 'rm -rf "$work"' EXIT
. "$root/scripts/pmie-lib.sh"
ours=$(our_pmie "$root" "$work") || exit 1

make_archive() { # NAME SAMPLES DISKS CPUS FILESYSTEMS
	[ -f "$1.0" ] || /usr/bin/python3 "$tools/mkarchive.py" "$@" >/dev/null || exit 1
}
make_archive "$base" 2000 200 64 50
make_archive "$dir/samples4" 8000 200 64 50
make_archive "$dir/instances4" 2000 800 256 200

python3 - "$tools/bench.pmie" >"$work/rules10.pmie" <<'PY'
import re, sys
text = "\n".join(l for l in open(sys.argv[1]).read().splitlines()
                 if not l.startswith("//") and not l.startswith("delta"))
stmts = [s.strip() for s in text.split(";") if s.strip()]
print("delta = 10 sec;")
for k in range(10):
    for s in stmts:
        s = re.sub(r"^(\w+) =", lambda m: f"{m.group(1)}_{k} =", s)
        s = re.sub(r"([<>]) (\d+)( |$)", lambda m: f"{m.group(1)} {int(m.group(2)) + k}{m.group(3)}", s)
        print(s + ";")
PY

uptime
while read -r name archive rules; do
	echo "== $name"
	BENCH_ARCHIVE=$archive "$tools/bench-vs-pmie.sh" "$ours" "$rules" "$runs"
done <<EOF
base $base $tools/bench.pmie
samples_x4 $dir/samples4 $tools/bench.pmie
instances_x4 $dir/instances4 $tools/bench.pmie
rules_x10 $base $work/rules10.pmie
EOF
uptime
