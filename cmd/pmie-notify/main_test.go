package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/pmie/daemon/wire"
	"github.com/gopcp/pmie/notify/alert"
)

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "daemon.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestUsageAndCheck(t *testing.T) {
	good := writeConfig(t, "rule_files: [r.pmie]\nreceivers:\n  - {name: w, type: webhook, url: 'http://127.0.0.1:1/'}\ndefault_receiver: w\n")
	os.WriteFile(filepath.Join(filepath.Dir(good), "r.pmie"), []byte("a = 1;\n"), 0o644)
	bad := writeConfig(t, "receivers:\n  - {name: x, type: webhook}\n")
	settings := `{"file":"` + good + `","rule_files":["` + filepath.Join(filepath.Dir(good), "r.pmie") + `"],"mmv":"pmie","watch":true,"alerting":true}` + "\n"
	for _, tc := range []struct {
		args      []string
		stdin     string
		code      int
		out, errs string
	}{
		{nil, "", 1, "", usage},
		{[]string{"-C"}, "", 1, "", usage},
		{[]string{"-C", good}, "", 0, settings, ""},
		{[]string{"-C", bad}, "", 1, "", bad + ":2:5: receivers[0].url: required\n"},
		{[]string{"-C", "-stdin", bad}, "receivers: []\nhttp: {listen_address: nowhere}\n", 1, "",
			bad + ":2:24: http.listen_address: not HOST:PORT: \"nowhere\"\n" + bad + ":1:12: receivers: no receivers are defined\n"},
		{[]string{bad}, "", 1, "", bad + ":2:5: receivers[0].url: required\n"},
		{[]string{"--help"}, "", 0, "", usage + "\n" + help},
		{[]string{"-?"}, "", 0, "", usage + "\n" + help},
		{[]string{"-C", "-h"}, "", 0, "", usage + "\n" + help},
		{[]string{"-x", good}, "", 1, "", "pmie-notify: unknown option -x\n" + usage},
		{[]string{"-C", "--", good}, "", 0, settings, ""},
	} {
		var out, errs bytes.Buffer
		if code := run(tc.args, strings.NewReader(tc.stdin), &out, &errs); code != tc.code || out.String() != tc.out || errs.String() != tc.errs {
			t.Errorf("%q: exit %d, %q %q; want %d, %q %q", tc.args, code, out.String(), errs.String(), tc.code, tc.out, tc.errs)
		}
	}
}

// TestServe has pmie-notify route the alerts of an evaluation to a
// webhook (with the configuration's labels), answer a ping, apply a new
// configuration, and send what it holds at the end of its input.
func TestServe(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, r.URL.Path+" "+string(b))
		mu.Unlock()
	}))
	defer srv.Close()
	file := writeConfig(t, "labels: {site: lab}\nreceivers:\n  - {name: w, type: webhook, url: '"+srv.URL+"/hook'}\n"+
		"routes:\n  - {condition: 'rule == \"load\"', receivers: [w]}\n")
	second := "labels: {site: two}\nreceivers:\n  - {name: w, type: webhook, url: '" + srv.URL + "/two'}\ndefault_receiver: w\n"
	t0 := time.Date(2023, 11, 14, 22, 13, 30, 0, time.UTC)
	fired := func(rule string) []*alert.Alert {
		return []*alert.Alert{{Rule: rule, Action: "print", Time: t0, Message: rule + " 4.49", Hosts: []string{"alpha"},
			Insts: []string{}, Bindings: []alert.Binding{{Host: "alpha", Value: "4.49"}}}}
	}
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	bound := []alert.Binding{{Host: "alpha", Value: "4.49"}}
	enc.Encode(&wire.Message{Type: "eval", Time: t0, Rules: []wire.Rule{
		{Key: "l", Name: "load", Truth: wire.True, Bindings: bound, Fired: fired("load")},
		{Key: "o", Name: "other", Truth: wire.True, Bindings: bound, Fired: fired("other")}}})
	enc.Encode(&wire.Message{Type: "ping", Seq: 7})
	enc.Encode(&wire.Message{Type: "config", File: file, YAML: []byte(second)})
	enc.Encode(&wire.Message{Type: "eval", Time: t0, Rules: []wire.Rule{{Key: "o", Name: "other", Truth: wire.True, Bindings: bound, Fired: fired("other")}}})
	in.WriteString("not json\n")
	var out, errs bytes.Buffer
	if code := run([]string{file}, &in, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	want := []string{
		`/hook {"rule":"load","status":"firing","action":"print","time":"2023-11-14T22:13:30Z","startsAt":"2023-11-14T22:13:30Z",` +
			`"message":"load 4.49","hosts":["alpha"],"instances":[],` +
			`"bindings":[{"host":"alpha","value":"4.49"}],"labels":{"site":"lab"}}`,
		`/two {"rule":"other","status":"firing","action":"print","time":"2023-11-14T22:13:30Z","startsAt":"2023-11-14T22:13:30Z",` +
			`"message":"other 4.49","hosts":["alpha"],"instances":[],` +
			`"bindings":[{"host":"alpha","value":"4.49"}],"labels":{"site":"two"}}`,
	}
	sort.Strings(bodies) // the receiver replaced sends in the background
	if strings.Join(bodies, "\n") != strings.Join(want, "\n") {
		t.Errorf("sent:\n%s\nwant:\n%s", strings.Join(bodies, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(out.String(), `{"type":"pong","seq":7}`) || !strings.Contains(out.String(), `"type":"stats"`) {
		t.Errorf("answered:\n%s", out.String())
	}
	if got := errs.String(); got != "alerting: message 5 from pmie: invalid character 'o' in literal null (expecting 'u')\n" {
		t.Errorf("logged %q", got)
	}
}
