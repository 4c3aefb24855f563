package realtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// CorpusEnv names the environment variable that says where the shared
// corpus is: the directory holding archives/ and rules/, real PCP
// archives and pmie rule files that are not part of this repository.
const CorpusEnv = "PMIE_CORPUS"

// CorpusDir is the shared corpus: $PMIE_CORPUS, else shared/corpus beside
// the repository (../shared/corpus from its top directory; for a git
// worktree, beside the main checkout when not beside the worktree). It
// may not exist.
func CorpusDir() string {
	if dir := os.Getenv(CorpusEnv); dir != "" {
		return dir
	}
	return Shared("corpus")
}

// Corpus is the corpus directory sub (such as "archives"), skipping t
// when it is not there. The corpus is never in CI, so its absence always
// skips.
func Corpus(t testing.TB, sub string) string {
	t.Helper()
	dir := filepath.Join(CorpusDir(), sub)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no shared corpus (set $%s to the directory holding archives/ and rules/): %v", CorpusEnv, err)
	}
	return dir
}

// Shared is the path rel under the shared directory beside the
// repository (../shared), found as CorpusDir finds the corpus. It may not
// exist.
func Shared(rel string) string {
	roots := repoRoots()
	for _, r := range roots {
		p := filepath.Join(r, "..", "shared", rel)
		if _, err := os.Stat(p); err == nil {
			return filepath.Clean(p)
		}
	}
	if len(roots) == 0 {
		return filepath.Join("..", "shared", rel)
	}
	return filepath.Clean(filepath.Join(roots[0], "..", "shared", rel))
}

// repoRoots are the repository's top directory (where go.mod is, above
// the working directory) and, when that is a git worktree, the main
// checkout's.
func repoRoots() []string {
	dir, err := os.Getwd()
	if err != nil {
		return nil
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			return nil
		}
		dir = up
	}
	roots := []string{dir}
	// A worktree's .git is a file naming its git directory, whose
	// commondir file leads to the main checkout's .git.
	b, err := os.ReadFile(filepath.Join(dir, ".git"))
	if err != nil {
		return roots
	}
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
	if !ok {
		return roots
	}
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(dir, gitdir)
	}
	common, err := os.ReadFile(filepath.Join(gitdir, "commondir"))
	if err != nil {
		return roots
	}
	c := strings.TrimSpace(string(common))
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitdir, c)
	}
	return append(roots, filepath.Dir(filepath.Clean(c)))
}
