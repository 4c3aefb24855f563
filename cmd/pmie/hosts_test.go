package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// closedPort is a local address where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestUnreachableHostsInOrder checks that hosts that do not answer are
// reported once each, when a rule first needs them, in order with the
// other messages about the rules, as pmie reports them (pmie 6.0.3 gives
// these messages for this file, with its hosts).
func TestUnreachableHostsInOrder(t *testing.T) {
	dflt, a, b := closedPort(t), closedPort(t), closedPort(t)
	rules := filepath.Join(t.TempDir(), "r.pmie")
	text := fmt.Sprintf("delta = 1 sec;\nx = hinv.ncpu :'%s';\ny = hinv.ncpu;\nz = 1 +;\nv = 2;\nw = hinv.ncpu :'%s' + hinv.ndisk :'%s';\n", a, b, a)
	if err := os.WriteFile(rules, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runPmie(t, "-C", "-h", dflt, "-c", rules)
	want := fmt.Sprintf(`[D] pmie(P) Info: Cannot connect to pmcd %[1]s
pmie: warning - pmcd via %[1]s does not respond
[D] pmie(P) Info: Cannot connect to pmcd %[2]s
pmie: warning - pmcd via %[2]s does not respond
pmie: syntax error - near line 5 of file %[4]s
arithmetic expression expected to follow +
[D] pmie(P) Info: Cannot connect to pmcd %[3]s
pmie: warning - pmcd via %[3]s does not respond
`, a, dflt, b, rules)
	got := regexp.MustCompile(`(?m)^\[[^]]*\] pmie\(\d+\)`).ReplaceAllString(errs, "[D] pmie(P)")
	if code != 0 || got != want {
		t.Errorf("status %d, messages:\n%s\nwant:\n%s", code, got, want)
	}
}

// TestHostZoneUnreachable checks -z with a default host that does not
// answer: pmie says it cannot set the zone and goes on in the local one,
// trying the host as it evaluates (pmie 6.0.3's messages for
// `pmie -h HOST -z -C -c FILE`).
func TestHostZoneUnreachable(t *testing.T) {
	host := closedPort(t)
	rules := filepath.Join(t.TempDir(), "r.pmie")
	if err := os.WriteFile(rules, []byte("r1 = hinv.ncpu > 0;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runPmie(t, "-C", "-z", "-h", host, "-c", rules)
	want := fmt.Sprintf(`pmie: cannot set timezone from %[1]s
pmNewContext failed: Connection refused
[D] pmie(P) Info: Cannot connect to pmcd %[1]s
pmie: warning - pmcd via %[1]s does not respond
`, host)
	got := regexp.MustCompile(`(?m)^\[[^]]*\] pmie\(\d+\)`).ReplaceAllString(errs, "[D] pmie(P)")
	if code != 0 || got != want {
		t.Errorf("status %d, messages:\n%s\nwant:\n%s", code, got, want)
	}
}
