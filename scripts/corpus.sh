# corpus.sh: sourced by scripts that read the shared corpus (real PCP
# archives and rule files kept outside the repository). corpus_dir ROOT
# prints where it is, as internal/realtest's CorpusDir finds it:
# $PMIE_CORPUS, else ../shared/corpus beside the repository ROOT, else,
# when ROOT is a git worktree, beside the main checkout.
corpus_dir() {
	local root=$1 common
	if [ -n "${PMIE_CORPUS:-}" ]; then
		printf '%s\n' "$PMIE_CORPUS"
		return
	fi
	if [ -d "$root/../shared/corpus" ]; then
		(cd "$root/../shared/corpus" && pwd)
		return
	fi
	common=$(git -C "$root" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)
	if [ -n "$common" ] && [ -d "$(dirname "$common")/../shared/corpus" ]; then
		(cd "$(dirname "$common")/../shared/corpus" && pwd)
		return
	fi
	printf '%s\n' "$root/../shared/corpus"
}
