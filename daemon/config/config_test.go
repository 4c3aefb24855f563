package config

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/notify"
	"github.com/gopcp/pmie/notify/alert"
)

func TestParseExample(t *testing.T) {
	t.Chdir("../..") // its exec receiver's program is named from there
	cfg, err := Load("examples/alerting.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a := cfg.Alerting
	if a == nil || len(a.Receivers) != 3 || len(a.Routes) == 0 || a.Default == "" || len(a.Windows) != 1 || len(a.Heartbeats) != 1 {
		t.Fatalf("example read as %+v", a)
	}
	if cfg.Listen != "" || cfg.MMV != DefaultMMV || !cfg.Watch || !cfg.Settings.Alerting {
		t.Errorf("settings %+v", cfg.Settings)
	}
}

// TestSettings checks the daemon's own keys: file names taken from the
// file's directory, sources, the endpoint, and the environment winning
// over the file.
func TestSettings(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.pmie", "b.pmie", "d.conf", "e.pmie"} {
		os.WriteFile(filepath.Join(dir, f), []byte("\n"), 0o644)
	}
	file := filepath.Join(dir, "pmie.yaml")
	yaml := `rule_files: [a.pmie, b.pmie]
derived_files: [d.conf]
sources: {host: alpha, interval: 30 sec}
http: {listen_address: ':9999'}
mmv: false
watch: false
`
	cfg, err := Parse(file, []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Settings
	if strings.Join(s.RuleFiles, " ") != filepath.Join(dir, "a.pmie")+" "+filepath.Join(dir, "b.pmie") ||
		s.DerivedFiles[0] != filepath.Join(dir, "d.conf") || s.Host != "alpha" || s.Interval != "30 sec" ||
		s.Listen != ":9999" || s.MMV != "" || s.Watch || s.Alerting || cfg.Alerting != nil {
		t.Errorf("settings %+v", s)
	}
	t.Setenv("PMIE_HTTP_LISTEN_ADDRESS", "127.0.0.1:1")
	t.Setenv("PMIE_RULE_FILES", "e.pmie")
	t.Setenv("PMIE_WATCH", "true")
	t.Setenv("PMIE_SOURCES_HOST", "beta")
	t.Setenv("PMIE_REQUIRE_PMCD", "1") // not a setting: left alone
	cfg, err = Parse(file, []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	s = cfg.Settings
	if s.Listen != "127.0.0.1:1" || len(s.RuleFiles) != 1 || s.RuleFiles[0] != filepath.Join(dir, "e.pmie") || !s.Watch || s.Host != "beta" {
		t.Errorf("with the environment: %+v", s)
	}
	t.Setenv("PMIE_MMV", "other")
	if cfg, err = Parse(file, []byte(yaml)); err != nil || cfg.MMV != "other" {
		t.Errorf("$PMIE_MMV=other: MMV %q, %v", cfg.MMV, err)
	}
	// false turns the MMV file off from the environment too, where the
	// value is the string "false", not a file named mmv.false.*
	t.Setenv("PMIE_MMV", "false")
	if cfg, err = Parse(file, []byte("mmv: pmie\n")); err != nil || cfg.MMV != "" {
		t.Errorf("$PMIE_MMV=false: MMV %q, %v", cfg.MMV, err)
	}
	t.Setenv("PMIE_MMV", "")
	t.Setenv("PMIE_WATCH", "sometimes")
	if _, err := Parse(file, []byte(yaml)); err == nil || err.Error() != `$PMIE_WATCH: watch: must be true or false, not "sometimes"` {
		t.Errorf("bad environment: %v", err)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"rule_files: [nope.pmie]\n", "x.yaml:1:14: rule_files[0]: stat " + filepath.Join(t.TempDir(), "..") + "/nope.pmie: no such file or directory"},
		{"sources: {host: a, local: true, interval: forever}\n", "x.yaml:1:43: sources.interval: not a sample interval such as \"10 sec\" or \"1min\": \"forever\"\n" +
			"x.yaml:1:27: sources.local: give host or local, not both"},
		{"http: {listen_address: 'a:99999', port: 1}\n", "x.yaml:1:35: http.port: unknown key\nx.yaml:1:24: http.listen_address: port must be from 0 to 65535, not \"99999\""},
		{"mmv: 'a/b'\nwatsh: true\n", "x.yaml:2:1: watsh: unknown key\nx.yaml:1:6: mmv: must be a name of letters, digits and _ (the metrics are mmv.NAME.*), or false, not \"a/b\""},
	} {
		_, err := Parse(filepath.Join(filepath.Dir(t.TempDir()), "x.yaml"), []byte(c.yaml))
		got := ""
		if err != nil {
			got = strings.ReplaceAll(err.Error(), filepath.Dir(t.TempDir())+"/", "")
		}
		want := strings.ReplaceAll(c.want, filepath.Dir(t.TempDir())+"/", "")
		if got != want {
			t.Errorf("%q:\n%s\nwant\n%s", c.yaml, got, want)
		}
	}
}

// failing is an HTTP transport that fails every request at once.
type failing struct{}

func (failing) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("no network in fuzzing")
}

// FuzzParse checks that no daemon configuration makes the loader panic,
// and that what it accepts starts and runs (issue 13): alerting is
// started on it (its HTTP requests fail at once, exec receivers run
// nothing), fed an evaluation that fires and one that resolves, given
// the configuration again, and closed, all without a panic. Minimizing
// can take long here (viper, YAML and expr are large): run it with
// -fuzzminimizetime 3s.
func FuzzParse(f *testing.F) {
	if data, err := os.ReadFile("../../examples/alerting.yaml"); err == nil {
		f.Add(data)
	}
	f.Add([]byte("sources: {host: a}\nhttp: {listen_address: ':1'}\nmmv: x\nreceivers: [{name: a, type: webhook, url: 'http://h', queue: 3}]\ndefault_receiver: a\n"))
	f.Add([]byte("receivers: [{name: b, type: alertmanager, urls: ['http://h', 'http://i'], resolve_timeout: 1m, resend_interval: 10s}]\n" +
		"routes: [{receivers: [b], mute_when: [w]}]\ntime_windows: [{name: w, cron: '@hourly', duration: 1m}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse("/nonexistent/f.yaml", data)
		if err != nil || cfg.Alerting == nil {
			return
		}
		n := notify.New(cfg.Alerting, notify.Options{Client: &http.Client{Transport: failing{}},
			Exec: func(context.Context, *notify.ReceiverConfig, []string, []byte) error { return nil }})
		t0 := time.Unix(1700000000, 0)
		a := &alert.Alert{Rule: "r", Action: "print", Time: t0, Message: "m", Hosts: []string{"h"}, Insts: []string{"i"},
			Bindings: []alert.Binding{{Host: "h", Inst: "i", Value: "1"}}, Labels: cfg.Alerting.Labels}
		n.Evaluated(&notify.Evaluation{Key: "k", Rule: "r", Time: t0, Truth: notify.True,
			Bindings: func() []notify.Binding { return a.Bindings }, Fired: []*alert.Alert{a}})
		n.Apply(cfg.Alerting)
		n.Evaluated(&notify.Evaluation{Key: "k", Rule: "r", Time: t0.Add(time.Minute), Truth: notify.False})
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		n.Close(ctx)
	})
}
