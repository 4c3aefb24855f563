package actions

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// alarmRunner is a Runner whose alarms run prog, logging into logged.
func alarmRunner(prog string, out *bytes.Buffer, logged *[]string) *Runner {
	return &Runner{Out: out, AlarmProgram: prog,
		Ctime: func(int64) string { return "Thu Jan  1 00:00:00 1970" },
		Log:   func(msg string) { *logged = append(*logged, msg) }}
}

// TestAlarmStillShowing checks that an alarm action is not posted again
// while its previous window shows (and is then neither counted nor run
// again), that another alarm action is posted meanwhile, and that the
// program gets pmie's arguments, the time with ctime's newline.
func TestAlarmStillShowing(t *testing.T) {
	dir := t.TempDir()
	args, gate := filepath.Join(dir, "args"), filepath.Join(dir, "gate")
	prog := filepath.Join(dir, "confirm")
	// each run appends its line in one write: two alarms run at once
	script := "#!/bin/sh\nline=$(printf '%s|' \"$@\")\nprintf '%s\\n' \"$line\" >> " + args +
		"\nwhile [ ! -e " + gate + " ]; do sleep 0.01; done\n"
	if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	var logged []string
	r := alarmRunner(prog, &out, &logged)
	one, two := new(int), new(int)
	post := func(key any, msg string) *Event {
		ev := &Event{Kind: Alarm, Text: []byte(msg), Key: key}
		if !r.Run(ev) {
			t.Fatalf("alarm %q failed", msg)
		}
		return ev
	}
	if ev := post(one, "first"); ev.Skipped {
		t.Fatal("the first alarm was skipped")
	}
	if ev := post(two, "second"); ev.Skipped {
		t.Error("an alarm of another action was skipped while the first shows")
	}
	if ev := post(one, "again"); !ev.Skipped {
		t.Error("an alarm was posted again while its window still shows")
	}
	os.WriteFile(gate, nil, 0o644)
	deadline := time.Now().Add(10 * time.Second)
	for {
		ev := &Event{Kind: Alarm, Text: []byte("later"), Key: one}
		r.Run(ev)
		if !ev.Skipped {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the alarm window never closed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for time.Now().Before(deadline) {
		if b, _ := os.ReadFile(args); strings.Count(string(b), "|\n") == 3 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	b, _ := os.ReadFile(args)
	lines := strings.Split(strings.TrimSuffix(string(b), "|\n"), "|\n")
	want := "-header|Performance Co-Pilot Alarm|-b|Cancel|-icon|warning|-t|Thu Jan  1 00:00:00 1970\n|-t|"
	if len(lines) != 3 {
		t.Fatalf("alarm program ran %d times, want 3: %q", len(lines), b)
	}
	for i, msg := range []string{"first", "second", "later"} {
		found := false
		for _, l := range lines {
			found = found || l == want+msg
		}
		if !found {
			t.Errorf("alarm %d: no run with arguments %q in %q", i, want+msg, lines)
		}
	}
	if len(logged) != 0 || out.Len() != 0 {
		t.Errorf("logged %q, printed %q", logged, out.String())
	}
}

// TestAlarmWithoutProgram checks pmie's fallbacks: with no program
// configured the alarm is printed as echo(1) prints it, saying once why;
// with a program that cannot run, the alarm counts as posted (pmie's child
// fails after the fork) and ours says so once.
func TestAlarmWithoutProgram(t *testing.T) {
	var out bytes.Buffer
	var logged []string
	r := alarmRunner("", &out, &logged)
	for range 2 {
		if ev := (&Event{Kind: Alarm, Text: []byte("x")}); !r.Run(ev) || ev.Skipped {
			t.Error("a printed alarm failed or was skipped")
		}
	}
	line := "-header Performance Co-Pilot Alarm -b Cancel -icon warning -t Thu Jan  1 00:00:00 1970\n -t x\n"
	if out.String() != line+line {
		t.Errorf("printed %q, want twice %q", out.String(), line)
	}
	if len(logged) != 1 || logged[0] != "PCP_XCONFIRM_PROG not found, using echo(1)" {
		t.Errorf("logged %q", logged)
	}
	out.Reset()
	logged = nil
	r = alarmRunner(filepath.Join(t.TempDir(), "missing"), &out, &logged)
	for range 2 {
		if ev := (&Event{Kind: Alarm, Text: []byte("x")}); !r.Run(ev) || ev.Skipped {
			t.Error("an alarm whose program is missing failed or was skipped")
		}
	}
	if len(logged) != 1 || !strings.HasPrefix(logged[0], "alarm action: cannot run ") || out.Len() != 0 {
		t.Errorf("logged %q, printed %q", logged, out.String())
	}
}
