package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/goldenfile"
	"github.com/gopcp/pmie/internal/pdu"
	"github.com/gopcp/pmie/pmapi"
)

const agentGoldens = "testdata/golden/pmie-agent"

// TestAgentGoldens runs pmie -x and -X on each case of
// testdata/golden/pmie-agent and compares its standard output byte for
// byte (every PDU, with its sender, for -x) and its exit status and
// messages with real pmie's.
func TestAgentGoldens(t *testing.T) {
	// as gen.sh cleans them (the archives' host, vm, is no host name to
	// hide, as goldenClean hides this one's)
	clean := func(s string) string {
		var b strings.Builder
		for _, l := range strings.SplitAfter(logStamp.ReplaceAllString(s, "[STAMP] "), "\n") {
			if !strings.HasPrefix(l, "[STAMP] Info: evaluator exiting") {
				b.WriteString(l)
			}
			if strings.HasPrefix(l, "Usage: pmie ") {
				break
			}
		}
		return b.String()
	}
	dir := filepath.Join(repoRoot, agentGoldens)
	goldenCases(t, dir, 3, func(t *testing.T, f []string) string {
		t.Setenv("PCP_DERIVED_CONFIG", "")
		t.Setenv("PMNS_DEFAULT", agentGoldens+"/pmns")
		t.Setenv("TZ", "UTC")
		for _, kv := range strings.Fields(f[1]) {
			k, v, _ := strings.Cut(kv, "=")
			t.Setenv(k, v)
		}
		code, out, errs := runPmie(t, goldenfile.Words(f[2], map[string]string{"A": "testdata/archives", "D": agentGoldens})...)
		want, err := os.ReadFile(filepath.Join(dir, f[0]+".out"))
		if err != nil {
			t.Fatal(err)
		}
		if out != string(want) {
			t.Errorf("standard output differs from real pmie's:\n%s\nwant\n%s", showPDUs([]byte(out)), showPDUs(want))
		}
		errs = clean(errs)
		command := fmt.Sprintf("env PCP_DERIVED_CONFIG= PMNS_DEFAULT=%s/pmns TZ=UTC %s pmie %s", agentGoldens, f[1], f[2])
		return fmt.Sprintf("command: %s\nexit: %d\nstderr: %d lines\n%s", command, code, strings.Count(errs, "\n"), errs)
	})
}

// isPDU reports whether b starts with what looks like a PDU pmie -x
// sends: a DESC or RESULT header whose length b holds.
func isPDU(b []byte) (pdu.Header, bool) {
	h, err := pdu.ParseHeader(b)
	return h, err == nil && (h.Type == pdu.Desc || h.Type == pdu.Result) && h.Len >= pdu.HeaderLen && h.Len <= len(b)
}

// showPDUs renders pmie -x's output for a reader: each PDU decoded, and
// the text between them (what -z, actions and the debugger print), a line
// at a time, as it is.
func showPDUs(b []byte) string {
	var s strings.Builder
	for len(b) > 0 {
		h, ok := isPDU(b)
		if !ok {
			n := 1
			for n < len(b) && b[n-1] != '\n' {
				if _, ok := isPDU(b[n:]); ok {
					break
				}
				n++
			}
			fmt.Fprintf(&s, "text %q\n", b[:n])
			b = b[n:]
			continue
		}
		p := b[:h.Len]
		b = b[h.Len:]
		if h.Type == pdu.Desc {
			d, err := pdu.DecodeDesc(p)
			fmt.Fprintf(&s, "desc from %d: %+v %v\n", h.From, d, err)
			continue
		}
		var r pmapi.Result
		err := pdu.DecodeResult(p, &r, nil)
		fmt.Fprintf(&s, "result from %d at %v (%v):", h.From, r.Time, err)
		for _, vs := range r.Sets {
			switch {
			case vs.Err != nil:
				fmt.Fprintf(&s, " %s:%v", vs.PMID, pmapi.Code(vs.Err))
			case len(vs.Values) == 0:
				fmt.Fprintf(&s, " %s:none", vs.PMID)
			default:
				v := vs.Values[0].Atom.Float64()
				fmt.Fprintf(&s, " %s:%g(%#x)", vs.PMID, v, math.Float64bits(v))
			}
		}
		s.WriteByte('\n')
	}
	return s.String()
}

// TestAgentWherePmieCrashes checks our answers where pmie 6.0.3 crashes or
// sends garbage (see README): a rule that is a reserved variable alone
// (pmie -x reads a buffer such a rule does not have) is sent its value; a
// string metric's values (pmie -x sends a pointer as a double) are sent as
// no value, and printed quoted by -X (pmie -X crashes).
func TestAgentWherePmieCrashes(t *testing.T) {
	rules := filepath.Join(t.TempDir(), "r.pmie")
	if err := os.WriteFile(rules, []byte("s.r0 = $hour;\ns.r1 = kernel.uname.release;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PCP_DERIVED_CONFIG", "")
	t.Setenv("PMNS_DEFAULT", agentGoldens+"/pmns")
	t.Setenv("TZ", "UTC")
	code, out, errs := runPmie(t, "-a", "testdata/archives/linux-v3", "-t", "2", "-x", rules)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	shown := showPDUs([]byte(out))
	want := "result from 2 at 0 (<nil>): 27.0.0:14(0x402c000000000000) 27.0.1:none\n"
	if !strings.HasSuffix(shown, want) {
		t.Errorf("-x:\n%s\nwant it to end\n%s", shown, want)
	}
	code, out, _ = runPmie(t, "-a", "testdata/archives/linux-v3", "-t", "2", "-X", rules)
	if code != 0 || !strings.HasSuffix(out, "\n14 \"6.18.44-fc-v669\" \n") {
		t.Errorf("-X: status %d, output\n%s", code, out)
	}
}

// TestAgentWithDaemon checks that -x refuses our daemon configuration and
// HTTP endpoint, which would reload and route what pmie -x cannot.
func TestAgentWithDaemon(t *testing.T) {
	code, _, errs := runPmie(t, "-x", "--web.listen-address", "127.0.0.1:0", "-a", "testdata/archives/linux-v3", "testdata/pmie/logic.pmie")
	if code != 1 || !strings.HasPrefix(errs, "pmie: -x cannot be used with --yaml-config or --web.listen-address\nUsage: pmie ") {
		t.Errorf("status %d, messages:\n%s", code, errs)
	}
}

// TestAgentDebuggerLoads checks that rules the debugger's f loads under
// -x (on which pmie 6.0.3 dies) are described before their first values:
// a new task's descriptor comes before its first result.
func TestAgentDebuggerLoads(t *testing.T) {
	dir := t.TempDir()
	first, more := filepath.Join(dir, "first.pmie"), filepath.Join(dir, "more.pmie")
	os.WriteFile(first, []byte("summary.cpu.util = hinv.ncpu;\n"), 0o644)
	os.WriteFile(more, []byte("delta = 3 sec;\nsummary.cpu.busy = hinv.ncpu * 2;\n"), 0o644)
	t.Setenv("PCP_DERIVED_CONFIG", "")
	t.Setenv("PMNS_DEFAULT", filepath.Join(repoRoot, agentGoldens, "pmns"))
	t.Setenv("TZ", "UTC")
	t.Chdir(repoRoot)
	var out, errs strings.Builder
	code := run(t.Context(), nil, []string{"-x", "-d", "-a", "testdata/archives/linux-v3", "-t", "1", first},
		strings.NewReader("f "+more+"\nr 4sec\nq\n"), &out, &errs)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs.String())
	}
	shown := showPDUs([]byte(out.String()))
	desc := strings.Index(shown, "desc from 2: {PMID:27.0.2 ")
	result := strings.Index(shown, "27.0.2:4(")
	if desc < 0 || result < 0 || desc > result {
		t.Errorf("the rule f loaded is not described before its values:\n%s", shown)
	}
}
