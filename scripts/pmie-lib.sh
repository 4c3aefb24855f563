# pmie-lib.sh: functions for scripts that run our pmie; source it.

# our_pmie ROOT DIR prints the pmie to test: $PMIE if set, else one built
# from ROOT's ./cmd/pmie into DIR.
our_pmie() {
	local root=$1 dir=$2
	if [ -n "${PMIE:-}" ]; then
		printf '%s\n' "$PMIE"
		return
	fi
	(cd "$root" && go build -o "$dir/pmie" ./cmd/pmie) || return 1
	printf '%s\n' "$dir/pmie"
}
