package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "alerting.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestUsageAndCheck(t *testing.T) {
	good := writeConfig(t, "receivers:\n  - {name: w, type: webhook, url: 'http://127.0.0.1:1/'}\ndefault_receiver: w\n")
	bad := writeConfig(t, "receivers:\n  - {name: x, type: webhook}\n")
	for _, tc := range []struct {
		args []string
		code int
		errs string
	}{
		{nil, 1, "Usage: pmie-notify [-C] FILE\n"},
		{[]string{"-C"}, 1, "Usage: pmie-notify [-C] FILE\n"},
		{[]string{"-C", good}, 0, ""},
		{[]string{"-C", bad}, 1, "pmie-notify: " + bad + ": receivers[0].url: required\n"},
		{[]string{bad}, 1, "pmie-notify: " + bad + ": receivers[0].url: required\n"},
		{[]string{"--help"}, 0, "Usage: pmie-notify [-C] FILE\n\n" + help},
		{[]string{"-?"}, 0, "Usage: pmie-notify [-C] FILE\n\n" + help},
		{[]string{"-C", "-h"}, 0, "Usage: pmie-notify [-C] FILE\n\n" + help},
		{[]string{"-x", good}, 1, "pmie-notify: unknown option -x\nUsage: pmie-notify [-C] FILE\n"},
		{[]string{"-C", "--", good}, 0, ""},
	} {
		var errs bytes.Buffer
		if code := run(tc.args, strings.NewReader(""), &errs); code != tc.code || errs.String() != tc.errs {
			t.Errorf("%q: exit %d, %q; want %d, %q", tc.args, code, errs.String(), tc.code, tc.errs)
		}
	}
}

// TestRelay sends alerts read as JSON lines to a webhook, with the
// configuration's labels, reporting a line that is not an alert, and
// delivers all of them before the end of input ends the program.
func TestRelay(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
	}))
	defer srv.Close()
	cfg := writeConfig(t, "labels: {site: lab}\nreceivers:\n  - {name: w, type: webhook, url: '"+srv.URL+"/hook'}\n"+
		"routes:\n  - {condition: 'rule == \"load\"', receivers: [w]}\n")
	in := `{"rule":"load","action":"print","time":"2023-11-14T22:13:30Z","message":"load 4.49","hosts":["alpha"],` +
		`"instances":["1 minute"],"bindings":[{"host":"alpha","instance":"1 minute","value":"4.49"}],"labels":{}}
not json
{"rule":"quiet","action":"print","time":"2023-11-14T22:13:40Z","message":"m","hosts":[],"instances":[],"bindings":[],"labels":{}}
{"rule":"load","action":"syslog","time":"2023-11-14T22:13:50Z","message":"load 4.5","hosts":[],"instances":[],"bindings":[],"labels":{}}`
	var errs bytes.Buffer
	if code := run([]string{cfg}, strings.NewReader(in), &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if want := "alerting: alert 2: invalid character 'o' in literal null (expecting 'u')\n"; errs.String() != want {
		t.Errorf("messages %q, want %q", errs.String(), want)
	}
	want := []string{
		`{"rule":"load","action":"print","time":"2023-11-14T22:13:30Z","message":"load 4.49","hosts":["alpha"],` +
			`"instances":["1 minute"],"bindings":[{"host":"alpha","instance":"1 minute","value":"4.49"}],"labels":{"site":"lab"}}`,
		`{"rule":"load","action":"syslog","time":"2023-11-14T22:13:50Z","message":"load 4.5","hosts":[],"instances":[],"bindings":[],"labels":{"site":"lab"}}`,
	}
	if strings.Join(bodies, "\n") != strings.Join(want, "\n") {
		t.Errorf("sent:\n%s\nwant:\n%s", strings.Join(bodies, "\n"), strings.Join(want, "\n"))
	}
}

// TestLostReported checks that alerts that cannot be sent are reported
// and make the status 1.
func TestLostReported(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
	}))
	defer srv.Close()
	cfg := writeConfig(t, "receivers:\n  - {name: w, type: webhook, url: '"+srv.URL+"'}\ndefault_receiver: w\n")
	in := `{"rule":"r","action":"print","time":"2023-11-14T22:13:30Z","message":"m","hosts":[],"instances":[],"bindings":[],"labels":{}}` + "\n"
	var errs bytes.Buffer
	code := run([]string{cfg}, strings.NewReader(in), &errs)
	got := strings.ReplaceAll(errs.String(), srv.URL, "URL")
	want := "alerting: receiver w: rule r: POST URL: 400 Bad Request\n" +
		"alerting: 1 alerts were dropped or could not be sent\n"
	if code != 1 || got != want {
		t.Errorf("exit %d, %q; want 1, %q", code, got, want)
	}
}
