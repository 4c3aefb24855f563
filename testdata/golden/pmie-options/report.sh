# report NAME COMMAND STATUS OUT ERR LOG writes NAME.golden in $here as
# cmd/pmie's golden tests read it (goldenReport): the command, the exit
# status, then the standard output (file OUT) and standard error (ERR),
# each as "stdout: N lines" and those lines, and, when pmie made the file
# LOG, its lines as "log: N lines". Each is passed through the caller's
# clean function. Sourced by this directory's gen.sh and by
# ../pmie-live/gen.sh.
report() {
	local name=$1 command=$2 rc=$3 out=$4 err=$5 log=$6 t
	t=$(mktemp)
	{
		echo "command: $command"
		echo "exit: $rc"
		clean <"$out" >"$t"
		echo "stdout: $(wc -l <"$t") lines"
		cat "$t"
		clean <"$err" >"$t"
		echo "stderr: $(wc -l <"$t") lines"
		cat "$t"
		if [ -f "$log" ]; then
			clean <"$log" >"$t"
			echo "log: $(wc -l <"$t") lines"
			cat "$t"
		fi
	} >"$here/$name.golden"
	rm -f "$t"
}
