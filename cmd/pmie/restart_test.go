package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// pmcdControl runs the command that stops or starts the real pmcd:
// $PMIE_PMCD_STOP or $PMIE_PMCD_START, else /etc/init.d/pmcd.
func pmcdControl(t *testing.T, verb string) {
	t.Helper()
	cmd := os.Getenv("PMIE_PMCD_" + strings.ToUpper(verb))
	if cmd == "" {
		cmd = "/etc/init.d/pmcd " + verb
	}
	if out, err := exec.Command("sh", "-c", cmd).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
}

// TestPmcdRestart stops and restarts the real pmcd while our pmie
// evaluates a rule on it every second (issue 5's fault test): values are
// unknown while pmcd is down, known again within two evaluations of its
// return, and the messages are pmie's. It restarts the machine's pmcd,
// disturbing anything else using it, so it runs only with
// PMIE_PMCD_RESTART=1.
func TestPmcdRestart(t *testing.T) {
	if os.Getenv("PMIE_PMCD_RESTART") != "1" {
		t.Skip("restarts the real pmcd: set PMIE_PMCD_RESTART=1 to run")
	}
	const delta = time.Second
	dir, rules := ruleFile(t)
	p := startPmie(t, dir, "-h", "localhost", "-c", rules, "-v")
	p.waitLine(t, "n: ")
	time.Sleep(5 * time.Second)

	running := true
	t.Cleanup(func() {
		if !running {
			pmcdControl(t, "start")
		}
	})
	stopping := time.Now()
	pmcdControl(t, "stop")
	running = false
	stopped := time.Now()
	time.Sleep(20 * time.Second)
	starting := time.Now()
	pmcdControl(t, "start")
	running = true
	started := time.Now()
	time.Sleep(5 * time.Second)
	p.cmd.Process.Signal(syscall.SIGTERM)
	if code := p.wait(t); code != 0 {
		t.Errorf("status %d, want 0", code)
	}

	p.mu.Lock()
	defer p.mu.Unlock()
	var back time.Time
	unknown := 0
	for i, line := range p.all {
		at := p.at[i]
		known := strings.HasPrefix(line, "n: ") && line != "n: ?"
		switch {
		case !strings.HasPrefix(line, "n: "):
		case at.After(stopped.Add(delta)) && at.Before(starting):
			if known {
				t.Errorf("%s: value while pmcd was down", at.Format("15:04:05.000"))
			}
			unknown++
		case at.Before(stopped) && !known:
			t.Errorf("%s: no value before pmcd stopped", at.Format("15:04:05.000"))
		case at.After(started) && known && back.IsZero():
			back = at
		case !back.IsZero() && !known:
			t.Errorf("%s: no value after values came back", at.Format("15:04:05.000"))
		}
	}
	if unknown < 15 {
		t.Errorf("%d evaluations while pmcd was down for 20 s", unknown)
	}
	if back.IsZero() {
		t.Fatalf("no values after pmcd started again:\n%s", strings.Join(p.all, "\n"))
	}
	resumed := back.Sub(started)
	t.Logf("pmcd stop took %v, start %v; %d evaluations while down; values again %v after the start finished",
		stopped.Sub(stopping).Round(time.Millisecond), started.Sub(starting).Round(time.Millisecond), unknown, resumed.Round(time.Millisecond))
	if resumed > 2*delta {
		t.Errorf("values came back %v after pmcd, more than two cycles (%v)", resumed, 2*delta)
	}

	stamp := regexp.MustCompile(`(?m)^\[[^]]*\] pmie\(\d+\) `)
	got := stamp.ReplaceAllString(p.stderr.String(), "")
	want := regexp.MustCompile(`^Error: pmFetch from \S+ failed: IPC protocol failure
Info: Lost connection to pmcd localhost
Info: Re-established connection to pmcd localhost
$`)
	if !want.MatchString(got) {
		t.Errorf("messages:\n%s\nwant pmie's (pmFetch failed, Lost connection, Re-established connection)", got)
	}
}
