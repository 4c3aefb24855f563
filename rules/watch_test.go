package rules

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/internal/pmcdtest"
)

// TestWatchRenameOver checks that a file saved as editors save it (a new
// file written beside it and renamed over it) is reported once, after its
// changes settle, and that other files in the directory are not.
func TestWatchRenameOver(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "rules.pmie")
	os.WriteFile(file, []byte("a = 1;\n"), 0o644)
	got := make(chan string, 10)
	// the quiet time is long enough for the saves below to fall in one
	// on a loaded machine
	w, err := Watch([]string{file}, 300*time.Millisecond, func(r string) { got <- r }, func(err error) { t.Error(err) })
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()

	os.WriteFile(filepath.Join(dir, "other"), []byte("x"), 0o644)
	select {
	case r := <-got:
		t.Fatalf("reported %q for another file", r)
	case <-time.After(200 * time.Millisecond):
	}

	start := time.Now()
	tmp := filepath.Join(dir, ".rules.pmie.swp")
	os.WriteFile(tmp, []byte("a = 2;\n"), 0o644)
	if err := os.Rename(tmp, file); err != nil {
		t.Fatal(err)
	}
	os.Chmod(file, 0o600)
	os.WriteFile(file, []byte("a = 3;\n"), 0o644) // a second save soon after
	select {
	case r := <-got:
		if !strings.HasPrefix(r, "changed: "+file) {
			t.Errorf("reason %q", r)
		}
		t.Logf("reported %v after the save", time.Since(start))
	case <-time.After(2 * time.Second):
		t.Fatal("the rename over the file was not reported within 2 s")
	}
	select {
	case r := <-got:
		t.Errorf("reported twice: %q", r)
	case <-time.After(600 * time.Millisecond):
	}

	// the files watched can change
	other := filepath.Join(t.TempDir(), "derived.conf")
	if err := w.Set([]string{other}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file, []byte("a = 4;\n"), 0o644)
	os.WriteFile(other, []byte("x = 1\n"), 0o644)
	select {
	case r := <-got:
		if r != "changed: "+other {
			t.Errorf("reason %q, want the new file", r)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the new file's change was not reported")
	}
}

// TestReloaderTransaction checks that a failed load leaves the running
// rules alone and is counted and logged, that a file change with the
// same contents does nothing, and that a good load comes into force.
func TestReloaderTransaction(t *testing.T) {
	srv := pmcdtest.Start(t, pmcdtest.Sample("solo"))
	rt := &eval.Runtime{Clock: eval.NewClock()}
	env := &eval.Env{DefaultConn: srv.Spec(), Runtime: rt, Source: dialSource(t)}
	file := filepath.Join(t.TempDir(), "r.pmie")
	os.WriteFile(file, []byte("one"), 0o644)
	build := func(names ...string) *Candidate {
		b := &eval.Builder{Env: env}
		prog := &eval.Program{}
		for _, n := range names {
			b.Begin()
			b.Statement(prog, n, b.Fetch("hinv.ncpu", nil, nil, 0, 0), 10).Key = n
		}
		return &Candidate{Builder: b, Program: prog, Files: []string{file}}
	}
	first := build("one")
	var logs []string
	var r *Reloader
	errs := make(chan error, 3)
	clock := &fakeClock{now: time.Unix(1700000000, 0), pause: 10 * time.Millisecond}
	clock.hooks = map[int]func(){
		2: func() { errs <- r.Reload("test") },
		4: func() { errs <- r.Changed("same") },
		6: func() {
			os.WriteFile(file, []byte("two"), 0o644)
			go func() { errs <- r.Changed("edited") }()
		},
	}
	loads := 0
	load := func() (*Candidate, error) {
		loads++
		if loads == 1 {
			return nil, errors.New("r.pmie:1:5: error: bad")
		}
		return build("one", "two"), nil
	}
	out := &stampedWriter{}
	cfg := liveConfig(clock, out, 10)
	e := New(cfg, first.Builder, first.Program)
	r = NewReloader(e, load, first.Files, func(l Level, msg string) { logs = append(logs, msg) }, clock.Now)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"r.pmie:1:5: error: bad", "<nil>", "<nil>"} {
		if err := <-errs; fmt.Sprint(err) != want {
			t.Errorf("reload %d: %v, want %s", i, err, want)
		}
	}
	// the edit is reloaded in the background while the engine waits for
	// its sixth evaluation (cycle 5), which it wakes, or (on a loaded
	// machine) a later one
	cycles := strings.Split(strings.TrimSpace(out.String()), "\n\n")
	from := -1
	for i, c := range cycles {
		has := strings.Contains(c, "two:")
		if has && from < 0 {
			from = i
		}
		if from >= 0 && !has {
			t.Errorf("cycle %d without the new rule:\n%s", i, c)
		}
	}
	if from < 5 {
		t.Errorf("new rule from cycle %d, want 5 or later:\n%s", from, out.String())
	}
	ok, failed := r.Counts()
	if ok != 1 || failed != 1 || loads != 2 {
		t.Errorf("%d reloads ok, %d failed, %d loads; want 1, 1, 2", ok, failed, loads)
	}
	want := "reload (test) failed; the running configuration is kept:\nr.pmie:1:5: error: bad\n" +
		"reload (edited): configuration reloaded: 2 rules (1 kept, 1 new, 0 removed)"
	if got := strings.Join(logs, "\n"); got != want {
		t.Errorf("logged:\n%s\nwant:\n%s", got, want)
	}
}

// switchAll is a Reloadable that puts every candidate in force at once.
type switchAll struct{ n int }

func (s *switchAll) Reload(c *Candidate) <-chan Switched {
	s.n++
	done := make(chan Switched, 1)
	done <- Switched{}
	return done
}

// TestReloaderEditWhileLoading checks that a file saved while a reload is
// reading the configuration is not taken as read: its change reloads
// again, and a change that leaves the files as last read does not.
func TestReloaderEditWhileLoading(t *testing.T) {
	file := filepath.Join(t.TempDir(), "r.pmie")
	os.WriteFile(file, []byte("one"), 0o644)
	var read []string
	edit := ""
	load := func() (*Candidate, error) {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		read = append(read, string(b))
		if edit != "" {
			// saved by an editor just after the load read the file
			os.WriteFile(file, []byte(edit), 0o644)
			edit = ""
		}
		return &Candidate{Files: []string{file}}, nil
	}
	eng := &switchAll{}
	r := NewReloader(eng, load, []string{file}, nil, nil)
	edit = "two"
	if err := r.Reload("signal"); err != nil {
		t.Fatal(err)
	}
	if err := r.Changed("changed: " + file); err != nil {
		t.Fatal(err)
	}
	if err := r.Changed("changed: " + file); err != nil {
		t.Fatal(err)
	}
	if want := []string{"one", "two"}; !slices.Equal(read, want) {
		t.Errorf("loads read %q, want %q", read, want)
	}
	if eng.n != 2 {
		t.Errorf("%d configurations put in force, want 2", eng.n)
	}
}
