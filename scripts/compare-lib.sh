# Functions shared by the compare-pminfo scripts; source it.

# setup makes the scratch directory $tmp (removed on exit), sets $ours to
# the pminfo to test ($PMINFO, else built from ./cmd/pminfo under $root)
# and keeps real pminfo from adding derived metrics.
setup() {
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	ours=${PMINFO:-}
	if [ -z "$ours" ]; then
		ours=$tmp/pminfo
		(cd "$root" && go build -o "$ours" ./cmd/pminfo) || exit 1
	fi
	export PCP_DERIVED_CONFIG=
}

# drop_events removes the event.flags and event.missed entries: in output
# made of blank-line-separated blocks (-d, -f, -T, -l) their blocks with
# the blank line before, otherwise their lines and the indented lines
# under them; and their one-line errors.
drop_events() {
	awk '
	{ lines[NR] = $0; if ($0 == "") blocks = 1 }
	END {
		for (i = 1; i <= NR; i++) {
			l = lines[i]
			if (l !~ /^event\.(flags|missed)([ :]|$)/) {
				if (held) print ""
				held = 0
				if (l == "" && blocks) { held = 1; continue }
				print l
				continue
			}
			if (l ~ /^event\.(flags|missed): /) continue
			held = 0
			while (i < NR && lines[i + 1] != "" && (blocks || lines[i + 1] ~ /^ /)) i++
		}
		if (held) print ""
	}'
}

# score prints "identical total" for two files.
score() {
	local a=$1 b=$2 na nb changed
	na=$(wc -l <"$a")
	nb=$(wc -l <"$b")
	# lines only in b, per diff's alignment
	changed=$(diff "$a" "$b" | grep -c '^>')
	local same=$((nb - changed))
	local total=$((na > nb ? na : nb))
	echo "$same $total"
}

# compare_run ARGS... runs real pminfo and ours with ARGS, leaving each
# one's stdout then stderr in $tmp/real and $tmp/ours and the same without
# event.* entries in $tmp/real2 and $tmp/ours2, and prints the scores of
# both pairs: "identical total identical2 total2".
compare_run() {
	pminfo "$@" >"$tmp/real" 2>"$tmp/real.err"
	"$ours" "$@" >"$tmp/ours" 2>"$tmp/ours.err"
	cat "$tmp/real.err" >>"$tmp/real"
	cat "$tmp/ours.err" >>"$tmp/ours"
	drop_events <"$tmp/real" >"$tmp/real2"
	drop_events <"$tmp/ours" >"$tmp/ours2"
	echo "$(score "$tmp/ours" "$tmp/real") $(score "$tmp/ours2" "$tmp/real2")"
}
