package actions

import (
	"bytes"
	"context"
	"errors"
	"slices"
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

// TestStompAction checks that a stomp action is given to Runner.Stomp
// with its message, its answer deciding the action's success, and that in
// archive mode it is only reported, as pmie reports it.
func TestStompAction(t *testing.T) {
	for _, c := range []struct {
		replay, sent bool
		want         bool
		out          string
	}{
		{false, true, true, ""},
		{false, false, false, ""},
		{true, false, true, "stomp Thu Jan  1 00:00:00 1970: disk full\n"},
	} {
		var out bytes.Buffer
		var got []string
		r := &Runner{Replay: c.replay, Out: &out,
			Ctime: func(int64) string { return "Thu Jan  1 00:00:00 1970" },
			Stomp: func(msg string) bool { got = append(got, msg); return c.sent }}
		ok := r.Run(&Event{Kind: Stomp, Text: []byte("disk full")})
		if ok != c.want || out.String() != c.out {
			t.Errorf("replay %v, sent %v: ok %v, output %q; want %v, %q", c.replay, c.sent, ok, out.String(), c.want, c.out)
		}
		sent := []string{"disk full"}
		if c.replay {
			sent = nil
		}
		if !slices.Equal(got, sent) {
			t.Errorf("replay %v: sent %q, want %q", c.replay, got, sent)
		}
	}
}
