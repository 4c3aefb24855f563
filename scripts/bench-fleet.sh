#!/bin/bash
# Measures one pmie evaluating a fleet of stand-in hosts: the rules PCP's
# pmieconf templates make (real pmieconf -F, every rule's delta made
# 10 sec), over N hosts (default 2000) served by internal/pmcdtest/farm
# in another process, each answering after LATENCY (default 50ms).
# After the fleet has settled (WARMUP seconds, default 60: every host
# connected and evaluated), it samples pmie for SECONDS (default 180):
# CPU used (user+system, from /proc), resident size, and how late
# evaluations finished (pmie_evaluation_lag_*: a cycle completes within
# its delta when its lag is under 10 s). pmie-notify, the alert sender,
# is measured beside it.
#
#   scripts/bench-fleet.sh [N [LATENCY [SECONDS [WARMUP]]]]
#
# Needs PCP's pmieconf templates (pmieconf) and Go.
set -euo pipefail
N=${1:-2000}
LATENCY=${2:-50ms}
SECONDS_=${3:-180}
WARMUP=${4:-60}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
go build -o "$tmp/" ./cmd/pmie ./cmd/pmie-notify ./internal/pmcdtest/farm
pmieconf -F -f "$tmp/rules.pmie" >/dev/null
sed -i -e 's/^delta = .*;$/delta = 10 sec;/' "$tmp/rules.pmie"
rules=$(grep -c '^[a-z_.]* = *$' "$tmp/rules.pmie")
"$tmp/farm" -n "$N" -latency "$LATENCY" -o "$tmp/hosts" -ns testdata/standin/pmieconf.json 2>"$tmp/farm.log" &
pids+=($!)
while [ ! -s "$tmp/hosts" ]; do sleep 0.2; done
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$tmp/fleet.yaml" <<YAML
rule_files: [rules.pmie]
fleet:
  hosts_files: [hosts]
http: {listen_address: '127.0.0.1:$port'}
mmv: false
YAML
PMIE_NOTIFY=$tmp/pmie-notify "$tmp/pmie" --yaml-config "$tmp/fleet.yaml" -q >"$tmp/pmie.out" 2>"$tmp/pmie.log" &
pmie=$!
pids+=($pmie)
metric() { curl -s "http://127.0.0.1:$port/metrics" | awk -v m="$1" '$1 == m { print $2 }'; }
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
hwm() { awk '/^VmHWM/ { print $2 }' "/proc/$1/status"; }
start=$(date +%s.%N)
sleep "$WARMUP"
notify=$(pgrep -P "$pmie" pmie-notify || true)
hz=$(getconf CLK_TCK)
c0=$(cpu "$pmie"); n0=$( [ -n "$notify" ] && cpu "$notify" || echo 0 )
e0=$(metric pmie_evaluations_total); t0=$(date +%s.%N)
maxlag=0
for ((i = 0; i < SECONDS_ / 5; i++)); do
	sleep 5
	lag=$(metric pmie_evaluation_lag_seconds)
	maxlag=$(python3 -c "print(max($maxlag, ${lag:-0}))")
done
c1=$(cpu "$pmie"); n1=$( [ -n "$notify" ] && cpu "$notify" || echo 0 )
e1=$(metric pmie_evaluations_total); t1=$(date +%s.%N)
down=$(metric pmie_fleet_hosts_down)
members=$(metric pmie_fleet_members)
python3 - "$N" "$LATENCY" "$rules" "$hz" "$c0" "$c1" "$n0" "$n1" "$t0" "$t1" "$e0" "$e1" "$(rss "$pmie")" "$(hwm "$pmie")" \
	"$( [ -n "$notify" ] && rss "$notify" || echo 0)" "$maxlag" "$(metric pmie_evaluation_lag_max_seconds)" "$down" "$members" <<'PY'
import sys
(n, latency, rules, hz, c0, c1, n0, n1, t0, t1, e0, e1, rss, hwm, nrss, lag, maxlag, down, members) = sys.argv[1:]
n, rules, hz = int(n), int(rules), int(hz)
wall = float(t1) - float(t0)
cycles = wall / 10
cpu = (float(c1) - float(c0)) / hz
ncpu = (float(n1) - float(n0)) / hz
print(f"hosts {n} ({members} members, {down} down), latency {latency}, {rules} rules each, delta 10 sec")
print(f"evaluations: {float(e1) - float(e0):.0f} in {wall:.0f} s ({(float(e1) - float(e0)) / wall:.0f}/s, {n * rules / 10:.0f}/s expected)")
print(f"cycle lag: at most {float(lag):.2f} s while measured (sampled every 5 s), {float(maxlag):.2f} s since start (delta 10 s)")
print(f"pmie CPU: {cpu:.2f} s in {wall:.0f} s = {cpu / cycles:.3f} s a cycle = {100 * cpu / wall:.1f}% of one core")
print(f"pmie RSS: {int(rss) / 1024:.0f} MB now ({int(rss) / n:.0f} KB a host), peak {int(hwm) / 1024:.0f} MB ({int(hwm) / n:.0f} KB a host)")
print(f"pmie-notify: CPU {100 * ncpu / wall:.1f}% of one core, RSS {int(nrss) / 1024:.0f} MB")
PY
