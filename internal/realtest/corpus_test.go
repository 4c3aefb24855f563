package realtest

import (
	"os"
	"path/filepath"
	"testing"
)

func mkdirs(t *testing.T, dirs ...string) {
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func write(t *testing.T, name, text string) {
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCorpusDir finds the corpus from $PMIE_CORPUS, beside the
// repository, and beside the main checkout of a git worktree.
func TestCorpusDir(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	main, wt := filepath.Join(tmp, "main"), filepath.Join(tmp, "wt", "newcomer")
	gitdir := filepath.Join(main, ".git", "worktrees", "newcomer")
	mkdirs(t, filepath.Join(main, "pkg"), filepath.Join(wt, "pkg"), gitdir, filepath.Join(tmp, "shared", "corpus"))
	write(t, filepath.Join(main, "go.mod"), "module x\n")
	write(t, filepath.Join(wt, "go.mod"), "module x\n")
	write(t, filepath.Join(wt, ".git"), "gitdir: "+gitdir+"\n")
	write(t, filepath.Join(gitdir, "commondir"), "../..\n")
	want := filepath.Join(tmp, "shared", "corpus")

	t.Setenv(CorpusEnv, "")
	for _, dir := range []string{filepath.Join(main, "pkg"), filepath.Join(wt, "pkg")} {
		t.Chdir(dir)
		if got := CorpusDir(); got != want {
			t.Errorf("from %s: %s, want %s", dir, got, want)
		}
	}
	t.Chdir(filepath.Join(wt, "pkg"))
	if err := os.RemoveAll(filepath.Join(tmp, "shared")); err != nil {
		t.Fatal(err)
	}
	if got, want := CorpusDir(), filepath.Join(tmp, "wt", "shared", "corpus"); got != want {
		t.Errorf("with no corpus: %s, want %s (beside the worktree)", got, want)
	}
	t.Setenv(CorpusEnv, "/elsewhere")
	if got := CorpusDir(); got != "/elsewhere" {
		t.Errorf("with $%s set: %s", CorpusEnv, got)
	}
}
