package archive

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReopen checks that contexts made by Reopen answer every golden
// fetchdump command as libpcp does: one reopened from a context that
// reads the same archive at the same time (run with -race), and one
// reopened from that after the first is closed.
func TestReopen(t *testing.T) {
	shared := 0
	for _, cmd := range goldenCommands(t, "fetchdump.cmds") {
		args := cmd[1:]
		if len(args) > 2 && strings.Contains(args[1], ":") {
			continue // a profile: set on the context, not the archive
		}
		var paths []string
		for n := range strings.SplitSeq(args[0], ",") {
			paths = append(paths, filepath.Join(archivesDir, n))
		}
		first, err := Open(strings.Join(paths, ","))
		if err != nil {
			continue // the golden is the error opening it
		}
		want := readGolden(t, "fetchdump", cmd[0])
		second, err := first.Reopen()
		if err != nil {
			t.Fatalf("%s: reopen: %v", cmd[0], err)
		}
		if second.meta == first.meta {
			shared++
		}
		done := make(chan string)
		go func() { done <- oursCommand(t, first, args) }()
		got := map[string]string{"reopened": oursCommand(t, second, args), "first": <-done}
		first.Close()
		third, err := second.Reopen()
		if err != nil {
			t.Fatalf("%s: reopen: %v", cmd[0], err)
		}
		second.Close()
		got["reopened after the first closed"] = oursCommand(t, third, args)
		third.Close()
		for which, out := range got {
			if same, total, diff := compare(want, out); diff != "" {
				t.Errorf("%s, %s context: %d/%d lines same; %s", strings.Join(args, " "), which, same, total, diff)
			}
		}
	}
	if shared < 50 {
		t.Errorf("metadata shared by %d reopened contexts, want most of the commands' contexts", shared)
	}
}
