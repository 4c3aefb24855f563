package actions

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

// TestRefusedAction checks that an action whose Err is set is not run,
// fails (so the alternative after | runs) and is logged; in archive mode
// it is still reported.
func TestRefusedAction(t *testing.T) {
	for _, replay := range []bool{false, true} {
		var out bytes.Buffer
		var logged []string
		ran := false
		r := &Runner{Replay: replay, Out: &out,
			Ctime: func(int64) string { return "Thu Jan  1 00:00:00 1970" },
			Log:   func(msg string) { logged = append(logged, msg) },
			Shell: func(context.Context, string) error { ran = true; return nil }}
		ev := &Event{Kind: Shell, Text: []byte("echo `echo a b`"), Err: errors.New("%i value \"a b\" cannot be quoted safely inside backquotes")}
		if r.Run(ev) {
			t.Errorf("replay %v: a refused action succeeded", replay)
		}
		if ran {
			t.Errorf("replay %v: a refused action ran", replay)
		}
		want := "shell action not run: %i value \"a b\" cannot be quoted safely inside backquotes"
		if len(logged) != 1 || logged[0] != want {
			t.Errorf("replay %v: logged %q, want %q", replay, logged, want)
		}
		report := ""
		if replay {
			report = "shell Thu Jan  1 00:00:00 1970: echo `echo a b`\n"
		}
		if out.String() != report {
			t.Errorf("replay %v: output %q, want %q", replay, out.String(), report)
		}
	}
}
