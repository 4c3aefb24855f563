#!/usr/bin/env bash
# gen.sh: regenerate the goldens of cmd/pmieconf's TestBuiltinOverArchive:
# for each line of ./cases, our pmieconf makes a pmie file from its
# built-in templates (-r @builtin) after the case's setup commands, and real
# pmie (PCP 6.0.3) evaluates it over testdata/archives/collector:
#
#	cd testdata/archives && TZ=UTC pmie -z -a collector -c FILE >NAME.out
#
# NAME.out is pmie's standard output. The archive's values are scripted
# (testdata/archives/mkcollector.py), so what each rule finds is known.
#
# usage: testdata/golden/pmieconf-builtin/gen.sh
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/pmieconf" ./cmd/pmieconf)

grep -v '^#' "$here/cases" | while IFS=$'\t' read -r name setup args _; do
	file=$tmp/$name.pmie
	if [ "$setup" != - ]; then
		while IFS= read -r c; do
			# shellcheck disable=SC2086 # each command is words
			"$tmp/pmieconf" -r @builtin -f "$file" $c
		done < <(printf '%s\n' "${setup// ;; /$'\n'}")
	fi
	# shellcheck disable=SC2086
	"$tmp/pmieconf" -r @builtin -f "$file" $args
	(cd "$root/testdata/archives" && TZ=UTC pmie -z -a collector -c "$file") >"$here/$name.out"
	echo "$name: $(wc -l <"$here/$name.out") lines"
done
