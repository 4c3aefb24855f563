package notify

import (
	"strings"
	"testing"
	"time"
)

// TestFailuresLogged checks that a receiver's first failure is logged at
// once, the ones less than a minute after the last message are counted
// into the next, and a success after failures says how many there were
// and the last one not logged.
func TestFailuresLogged(t *testing.T) {
	t0 := time.Unix(1700000000, 0).UTC()
	now := t0
	var logs []string
	f := newFailures("am", func(m string) { logs = append(logs, m) }, func() time.Time { return now })
	at := func(sec int, msg string) {
		now = t0.Add(time.Duration(sec) * time.Second)
		f.failed(msg)
	}
	at(0, "e1")
	at(20, "e2")
	at(40, "e3")
	if len(logs) != 1 || logs[0] != "alerting: receiver am: e1" {
		t.Fatalf("after three failures within a minute, logged %q", logs)
	}
	at(70, "e4")
	if len(logs) != 2 || logs[1] != "alerting: receiver am: e4 (and 2 more failures since the last message)" {
		t.Fatalf("a minute on, logged %q", logs)
	}
	at(80, "e5")
	now = t0.Add(90 * time.Second)
	f.succeeded()
	want := "alerting: receiver am: sending again after 5 failures since 2023-11-14T22:13:20Z (the last not logged: e5)"
	if len(logs) != 3 || logs[2] != want {
		t.Fatalf("after the success, logged %q, want last %q", logs, want)
	}
	f.succeeded()
	if len(logs) != 3 {
		t.Errorf("a success after a success logged %q", logs[3:])
	}
	at(100, "e6")
	if len(logs) != 4 || !strings.HasSuffix(logs[3], ": e6") {
		t.Errorf("a failure after the recovery: logged %q", logs)
	}
}
