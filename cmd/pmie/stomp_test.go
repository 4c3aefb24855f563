package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/goldenfile"
	"github.com/gopcp/pmie/internal/pmcdtest"
	"github.com/gopcp/pmie/internal/stomptest"
)

// recordDiffers are the stomp cases whose broker record is not compared:
// with a negative timeout, pmie connects once for each address
// getaddrinfo gives (three for 127.0.0.1) and uses the last, ours once
// (README).
var recordDiffers = map[string]bool{"timeout-negative": true}

// TestStompGoldens runs pmie on each case of testdata/golden/pmie-stomp,
// its stomp actions going to a broker stand-in (internal/stomptest), and
// compares its exit status, output, messages and log, and every byte the
// broker received, with real pmie's. The live cases evaluate a pmcd
// stand-in.
func TestStompGoldens(t *testing.T) {
	parent := t
	dir := filepath.Join(repoRoot, "testdata/golden/pmie-stomp")
	cases, err := goldenfile.ReadCases(dir, 5)
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	date := regexp.MustCompile(`[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d \d{4}`)
	logHost := regexp.MustCompile(`(?m)^Log for pmie on \S+`)
	var pmcd *pmcdtest.Server // started for the first live case
	for _, f := range cases {
		name, envs, behaviour, conf, args := f[0], f[1], f[2], f[3], f[4]
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, name+".golden"))
			if err != nil {
				t.Fatal(err)
			}
			vars := map[string]string{"CONF": filepath.Join(t.TempDir(), "stomp.conf"),
				"LOG": filepath.Join(t.TempDir(), "pmie.log")}
			if strings.Contains(args, "$HOST") {
				if testing.Short() {
					t.Skip("runs for seconds")
				}
				if pmcd == nil {
					pmcd = pmcdtest.Start(parent, pmcdtest.Sample(host))
				}
				vars["HOST"] = pmcd.Spec()
			}
			b, err := stomptest.ParseBehaviour(behaviour)
			if err != nil {
				t.Fatal(err)
			}
			br, err := stomptest.Start("127.0.0.1:0", b)
			if err != nil {
				t.Fatal(err)
			}
			defer br.Close()
			port := strconv.Itoa(br.Port())
			if conf != "" {
				text := strings.ReplaceAll(printfText(t, conf), "@PORT@", port)
				text = strings.ReplaceAll(text, "$LONG", strings.Repeat("x", 4080))
				if err := os.WriteFile(vars["CONF"], []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, kv := range strings.Fields(envs) {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			t.Setenv("TZ", "UTC")
			code, out, errs := runPmie(t, goldenfile.Words(args, vars)...)
			portWord := regexp.MustCompile(`\b` + port + `\b`)
			clean := func(s string) string {
				s = date.ReplaceAllString(logStamp.ReplaceAllString(s, "[STAMP] "), "[DATE]")
				s = logHost.ReplaceAllString(portWord.ReplaceAllString(s, "@PORT@"), "Log for pmie on @HOST@")
				return strings.ReplaceAll(s, vars["CONF"], "$CONF")
			}
			out, errs = clean(out), clean(errs)
			got := fmt.Sprintf("command: env %s TZ=UTC pmie %s\nexit: %d\nstdout: %d lines\n%sstderr: %d lines\n%s",
				envs, args, code, strings.Count(out, "\n"), out, strings.Count(errs, "\n"), errs)
			if log, err := os.ReadFile(vars["LOG"]); err == nil {
				l := clean(string(log))
				got += fmt.Sprintf("log: %d lines\n%s", strings.Count(l, "\n"), l)
			}
			_, wantRecord, _ := strings.Cut(string(want), "\nrecord: ")
			conns := strings.Count(wantRecord, "\nconnection ")
			if recordDiffers[name] {
				conns = 0
			}
			if !br.Settle(conns, 5*time.Second) {
				t.Errorf("the broker did not see the connections end:\n%s", br.Record())
			}
			wantText := string(want)
			if recordDiffers[name] {
				wantText, _, _ = strings.Cut(wantText, "record: ")
			} else {
				rec := br.Record()
				got += fmt.Sprintf("record: %d lines\n%s", strings.Count(rec, "\n"), rec)
			}
			compareLines(t, got, wantText)
		})
	}
}

// TestStompClosedWhenMadeLate checks that a stomp client made after
// start-up (the debugger's f loading the first stomp action) is closed
// when pmie ends: the deferred Close took the client there was at start,
// none, and left the connection open.
func TestStompClosedWhenMadeLate(t *testing.T) {
	host, _ := os.Hostname()
	pmcd := pmcdtest.Start(t, pmcdtest.Sample(host))
	br, err := stomptest.Start("127.0.0.1:0", stomptest.Behaviour{Replies: 2, CloseAt: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	dir := t.TempDir()
	conf := filepath.Join(dir, "stomp.conf")
	text := "host=127.0.0.1\nport=" + strconv.Itoa(br.Port()) + "\nusername=joe\npassword=secret\n"
	later := filepath.Join(dir, "later.pmie")
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(later, []byte("delta = 200 msec;\ns = hinv.ncpu > 0 -> stomp \"late\";\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := debugRun(t, "f "+later+"\nr 300msec\nq\n", "-h", pmcd.Spec(), "-j", conf)
	if code != 0 {
		t.Fatalf("status %d, stderr:\n%s", code, errs)
	}
	if !br.Settle(1, 5*time.Second) || !strings.Contains(br.Record(), "late\\x00\\n\"\nclosed by the client\n") {
		t.Errorf("the connection was not closed after the stomp action:\n%s\nstderr:\n%s", br.Record(), errs)
	}
}
