#!/bin/sh
# Regenerates the golden outputs (gzipped) of real pmie (PCP 6.0.3) listed in
# cases.txt. Run from this directory; needs PCP installed and, for the
# corpus cases, the shared corpus: $PMIE_CORPUS, by default
# ../shared/corpus beside the repository (scripts/corpus.sh).
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
# shellcheck source=../../../scripts/corpus.sh
. "$repo/scripts/corpus.sh"
corpus=$(corpus_dir "$repo")
grep -v '^#' "$here/cases.txt" | while IFS='|' read -r name where sets args; do
	name=$(echo $name); where=$(echo $where)
	args=$(echo "$args" | sed "s|@REPO@|$repo|g")
	if [ "$where" = corpus ]; then dir=$corpus/archives; else dir=$repo; fi
	[ -d "$dir" ] || { echo "skip $name: no $dir"; continue; }
	for set in $sets; do
		case $set in v) f=-v;; V) f=-V;; W) f=-W;; Ve) f="-V -e";; esac
		(cd "$dir" && TZ=UTC pmie -z $args $f) 2>/dev/null | gzip -n -9 >"$here/$name.$set.gz"
		echo "$name.$set: $(gzip -dc "$here/$name.$set.gz" | wc -l) lines"
	done
done
