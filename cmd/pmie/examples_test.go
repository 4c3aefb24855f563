package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestExamplesCheck checks the example rule files the README runs: pmie -C
// accepts them, on the embedded collector, with the alerting file too
// (which pmie-notify checks).
func TestExamplesCheck(t *testing.T) {
	useNotifier(t)
	for _, args := range [][]string{
		{"-C", "-L", "-c", "examples/basic.pmie"},
		{"-C", "-L", "--route-alerts", "examples/alerting.yaml", "-c", "examples/alerting.pmie"},
	} {
		if code, out, errs := runPmie(t, args...); code != 0 || out != "" || errs != "" {
			t.Errorf("pmie %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errs)
		}
	}
}

// TestAlertingExample runs the README's alerting example for a moment:
// the heartbeat rule prints its line and examples/page-oncall, the
// default receiver, pages (on its standard error, which pmie logs as
// information: the program succeeded).
func TestAlertingExample(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for a second")
	}
	useNotifier(t)
	code, out, errs := runPmie(t, "-L", "--route-alerts", "examples/alerting.yaml",
		"-c", "examples/alerting.pmie", "-T", "1sec")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !regexp.MustCompile(`(?m)^.*: heartbeat: \d+ processes$`).MatchString(out) {
		t.Errorf("no heartbeat printed:\n%s", out)
	}
	// the program succeeded: what it said is logged as information
	page := regexp.MustCompile(`(?m)^\[.*\] pmie\(\d+\) Info: alerting: receiver pager: rule heartbeat: examples/page-oncall said: paging ops: heartbeat: heartbeat: \d+ processes$`)
	if !page.MatchString(errs) {
		t.Errorf("no page logged:\n%s", errs)
	}
}
