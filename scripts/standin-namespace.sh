#!/bin/sh
# Remakes testdata/standin/pmieconf.json, the namespace the stand-in
# hosts of internal/pmcdtest/farm serve: every metric the rules made by
# PCP's pmieconf templates read (real pmieconf -F, with the templates
# installed), recorded from the local pmcd (descriptors, instance domains,
# values). The mssql PMDA's two metrics, which pmcd serves only where SQL
# Server runs, are added as that PMDA describes them (domain 109, 64-bit
# unsigned, instantaneous, kilobytes). The load averages are set to 1.5,
# 1.2 and 1.0, whatever the recording machine's were, so that examples
# do not depend on how busy it was. Needs PCP, pmcd and python3.
set -e
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pmieconf -F -f "$tmp/rules.pmie" >/dev/null
# metric names: dotted words of the rules, not the rules' own names
grep -v '^//' "$tmp/rules.pmie" | grep -v '^[a-z_.]* = *$' |
	grep -o '[a-z_][a-z0-9_]*\(\.[a-z0-9_]\+\)\+' | sort -u >"$tmp/names"
go run ./internal/pmcdtest/farm -record local: -o "$tmp/ns.json" $(cat "$tmp/names")
python3 - "$tmp/ns.json" testdata/standin/pmieconf.json <<'PY'
import json, sys
ns = json.load(open(sys.argv[1]))
names = {m["name"] for m in ns["metrics"]}
kb = {"DimSpace": 1, "DimTime": 0, "DimCount": 0, "ScaleSpace": 1, "ScaleTime": 0, "ScaleCount": 0}
for item, (name, value) in enumerate([("mssql.memory_manager.stolen_node_memory", 204800),
                                      ("mssql.memory_manager.total_server_memory", 4194304)]):
    if name not in names:
        pmid = (109 << 22) | (3 << 10) | item  # domain 109, cluster 3
        ns["metrics"].append({"name": name, "desc": {"PMID": pmid, "Type": 3, "InDom": 4294967295, "Sem": 3,
                              "Units": kb}, "values": [{"inst": -1, "num": value}]})
for m in ns["metrics"]:
    if m["name"] == "kernel.all.load":
        for v, load in zip(m["values"], (1.5, 1.2, 1.0)):
            v["num"] = load
ns["source"] += "; mssql.memory_manager.* added and kernel.all.load set by scripts/standin-namespace.sh"
ns["metrics"].sort(key=lambda m: m["name"])
json.dump(ns, open(sys.argv[2], "w"), indent=1)
open(sys.argv[2], "a").write("\n")
PY
echo "testdata/standin/pmieconf.json: $(grep -c '"name"' testdata/standin/pmieconf.json) metrics"
