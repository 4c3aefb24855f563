#!/bin/sh
# Regenerates the golden outputs (gzipped) of real pmie (PCP 6.0.3) listed in
# cases.txt. Run from this directory; needs PCP installed and, for the
# corpus cases, the shared corpus: $PMIE_CORPUS, by default
# ../shared/corpus beside the repository (scripts/corpus.sh).
# With arguments, only the cases of those names.
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
# shellcheck source=../../../scripts/corpus.sh
. "$repo/scripts/corpus.sh"
corpus=$(corpus_dir "$repo")
grep -v '^#' "$here/cases.txt" | while IFS='|' read -r name where sets args; do
	name=$(echo $name); where=$(echo $where)
	if [ $# -gt 0 ]; then
		case " $* " in *" $name "*) ;; *) continue;; esac
	fi
	args=$(printf '%s' "$args" | sed -e 's/^ *//' -e "s|@REPO@|$repo|g")
	# leading NAME=VALUE words are settings of the environment
	envs=
	while :; do
		case ${args%% *} in
		[A-Z]*=*) envs="$envs ${args%% *}"; args=${args#* } ;;
		*) break ;;
		esac
	done
	if [ "$where" = corpus ]; then dir=$corpus/archives; else dir=$repo; fi
	[ -d "$dir" ] || { echo "skip $name: no $dir"; continue; }
	for set in $sets; do
		case $set in v|err) f=-v;; V) f=-V;; W) f=-W;; Ve) f="-V -e";; esac
		if [ "$set" = err ]; then
			# standard error and the exit status; not the line of the
			# day and process id that says the evaluator is exiting
			(cd "$dir" && env $envs TZ=UTC pmie -z $args $f 2>&1 >/dev/null; echo "exit: $?") |
				grep -a -v 'Info: evaluator exiting' | gzip -n -9 >"$here/$name.$set.gz"
		else
			(cd "$dir" && env $envs TZ=UTC pmie -z $args $f) 2>/dev/null | gzip -n -9 >"$here/$name.$set.gz"
		fi
		echo "$name.$set: $(gzip -dc "$here/$name.$set.gz" | wc -l) lines"
	done
done
