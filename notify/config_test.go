package notify

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestParseDefaults(t *testing.T) {
	cfg, err := Parse("a.yaml", []byte(`
labels: {team: ops}
receivers:
  - name: hook
    type: webhook
    url: http://example.com/x
    headers: {X-Token: abc}
  - name: am
    type: alertmanager
    url: http://am:9093/
    resolve_timeout: 10m
routes:
  - condition: rule startsWith "disk"
    receivers: [am]
    continue: true
default_receiver: hook
`))
	if err != nil {
		t.Fatal(err)
	}
	hook, am := cfg.Receivers[0], cfg.Receivers[1]
	if hook.Queue != DefaultQueue || hook.Timeout != DefaultTimeout || hook.Retries != DefaultRetries || hook.Backoff != DefaultBackoff {
		t.Errorf("defaults not applied: %+v", hook)
	}
	if hook.Headers["x-token"] != "abc" {
		t.Errorf("headers = %v", hook.Headers)
	}
	if !hook.SendResolved || am.SendResolved {
		t.Errorf("send_resolved: webhook %v (want true by default), alertmanager %v", hook.SendResolved, am.SendResolved)
	}
	if am.ResolveTimeout != 10*time.Minute || am.ResendInterval != DefaultResendInterval {
		t.Errorf("alertmanager times: %+v", am)
	}
	if cfg.Labels["team"] != "ops" || !cfg.Routes[0].Continue || cfg.Default != "hook" || cfg.ShutdownTimeout != DefaultShutdownTimeout {
		t.Errorf("config: %+v", cfg)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []struct{ name, yaml, want string }{
		{"no receivers", `routes: []`, `x.yaml: receivers: no receivers are defined`},
		{"bad yaml", "receivers: [\n", "x.yaml: yaml: line 1: did not find expected node content"},
		{"unknown top key", "recievers: []\n", "x.yaml:1:1: recievers: unknown key"},
		{"bad type", "receivers:\n  - {name: a, type: email}\n", "x.yaml:2:21: receivers[0].type: must be exec, webhook or alertmanager, not \"email\""},
		{"no name", "receivers:\n  - {type: exec, command: [/bin/true]}\n", "x.yaml:2:5: receivers[0].name: required"},
		{"not a mapping", "receivers: [3]\n", "x.yaml:1:13: receivers[0]: must be a mapping, not a number"},
		{"exec no command", "receivers:\n  - {name: a, type: exec}\n", "x.yaml:2:5: receivers[0].command: required: the program and its arguments, as a list"},
		{"exec command string", "receivers:\n  - {name: a, type: exec, command: /bin/true}\n",
			"x.yaml:2:36: receivers[0].command: must be a list, not a string\nx.yaml:2:36: receivers[0].command: required: the program and its arguments, as a list"},
		{"exec unknown key", "receivers:\n  - {name: a, type: exec, command: [/bin/true], url: http://a}\n", "x.yaml:2:49: receivers[0].url: unknown key"},
		{"webhook no url", "receivers:\n  - {name: a, type: webhook}\n", "x.yaml:2:5: receivers[0].url: required"},
		{"send_resolved not a boolean", "receivers:\n  - {name: a, type: webhook, url: 'http://a', send_resolved: yes}\n",
			"x.yaml:2:62: receivers[0].send_resolved: must be true or false, not \"yes\""},
		{"send_resolved a number", "receivers:\n  - {name: a, type: exec, command: [/bin/true], send_resolved: 1}\n",
			"x.yaml:2:64: receivers[0].send_resolved: must be true or false, not a number"},
		{"send_resolved for alertmanager", "receivers:\n  - {name: a, type: alertmanager, url: 'http://a', send_resolved: false}\n",
			"x.yaml:2:67: receivers[0].send_resolved: not for alertmanager receivers: Alertmanager is always told when an alert resolves (its own receivers' send_resolved decides what it passes on)"},
		{"webhook bad url", "receivers:\n  - {name: a, type: webhook, url: 'ftp://x'}\n", "x.yaml:2:35: receivers[0].url: must be an http:// or https:// URL, not \"ftp://x\""},
		{"bad duration", "receivers:\n  - {name: a, type: webhook, url: 'http://x', timeout: 5}\n",
			"x.yaml:2:56: receivers[0].timeout: must be a duration such as \"10s\" or \"5m\", not a number"},
		{"negative duration", "receivers:\n  - {name: a, type: webhook, url: 'http://x', backoff: -1s}\n",
			"x.yaml:2:56: receivers[0].backoff: must be a positive duration such as \"10s\" or \"5m\", not \"-1s\""},
		{"bad queue", "receivers:\n  - {name: a, type: webhook, url: 'http://x', queue: 0}\n", "x.yaml:2:54: receivers[0].queue: must be a whole number from 1 to 100000, not 0"},
		{"resend too long", "receivers:\n  - {name: a, type: alertmanager, url: 'http://x', resend_interval: 10m}\n",
			"x.yaml:2:69: receivers[0].resend_interval: must be less than resolve_timeout (5m0s), or alerts resolve while firing"},
		{"duplicate", "receivers:\n  - {name: a, type: exec, command: [/bin/true]}\n  - {name: a, type: exec, command: [/bin/false]}\n",
			"x.yaml:3:12: receivers[1].name: receiver \"a\" is defined twice"},
		{"bad default", "receivers:\n  - {name: a, type: exec, command: [/bin/true]}\ndefault_receiver: b\n", "x.yaml:3:19: default_receiver: no receiver is named \"b\""},
		{"bad label", "labels: {'1x': y}\nreceivers:\n  - {name: a, type: exec, command: [/bin/true]}\n",
			"x.yaml:1:16: labels.1x: not a valid label name (letters, digits and _, not first a digit)"},
		{"route unknown receiver", "receivers:\n  - {name: a, type: exec, command: [/bin/true]}\nroutes:\n  - {name: r, receivers: [b]}\n",
			"x.yaml:4:26: routes[0].receivers: no receiver is named \"b\""},
		{"route no receivers", "receivers:\n  - {name: a, type: exec, command: [/bin/true]}\nroutes:\n  - {condition: 'true'}\n",
			"x.yaml:4:5: routes[0].receivers: required: a list of receiver names"},
		{"route continue", "receivers:\n  - {name: a, type: exec, command: [/bin/true]}\nroutes:\n  - {receivers: [a], continue: 'yes'}\n",
			"x.yaml:4:32: routes[0].continue: must be true or false, not \"yes\""},
		{"condition not bool", "receivers:\n  - {name: a, type: exec, command: [/bin/true]}\nroutes:\n  - {name: r, condition: 'rule + \"x\"', receivers: [a]}\n",
			"x.yaml:4:26: routes[0].condition: expected bool, but got string"},
		{"condition unknown name", "receivers:\n  - {name: a, type: exec, command: [/bin/true]}\nroutes:\n  - {condition: 'rules == \"x\"', receivers: [a]}\n",
			"x.yaml:4:17: routes[0].condition: unknown name rules (1:1)\n | rules == \"x\"\n | ^"},
		{"condition type error", "receivers:\n  - {name: a, type: exec, command: [/bin/true]}\nroutes:\n  - {condition: 'values > 3', receivers: [a]}\n",
			"x.yaml:4:17: routes[0].condition: invalid operation: > (mismatched types []float64 and int) (1:8)\n | values > 3\n | .......^"},
		{"several", "receivers:\n  - {name: a, type: webhook, url: 'http://x', timeout: soon, retries: -1}\n",
			"x.yaml:2:56: receivers[0].timeout: must be a positive duration such as \"10s\" or \"5m\", not \"soon\"\nx.yaml:2:71: receivers[0].retries: must be a whole number from 0 to 100, not -1"},
		// issue 13: what -C accepts must start and run
		{"huge queue", "receivers:\n  - {name: a, type: webhook, url: 'http://x', queue: 99999999999999}\n",
			"x.yaml:2:54: receivers[0].queue: must be a whole number from 1 to 100000, not 99999999999999"},
		{"header CR LF", "receivers:\n  - {name: a, type: webhook, url: 'http://x', headers: {X-A: \"v\\r\\nX-B: w\"}}\n",
			"x.yaml:2:62: receivers[0].headers.x-a: value must not hold control characters such as CR or LF (\"v\\r\\nX-B: w\")"},
		{"header name", "receivers:\n  - {name: a, type: webhook, url: 'http://x', headers: {'X A': v}}\n",
			"x.yaml:2:64: receivers[0].headers.x a: not a valid header name"},
		{"header forbidden", "receivers:\n  - {name: a, type: webhook, url: 'http://x', headers: {Content-Length: '3'}}\n",
			"x.yaml:2:73: receivers[0].headers.content-length: set by pmie's HTTP client; it cannot be given"},
		{"huge timeout", "receivers:\n  - {name: a, type: webhook, url: 'http://x', timeout: 100000h}\n",
			"x.yaml:2:56: receivers[0].timeout: must be from 1ms to 1h0m0s, not 100000h0m0s"},
		{"bad port", "receivers:\n  - {name: a, type: webhook, url: 'http://x:99999/'}\n",
			"x.yaml:2:35: receivers[0].url: port must be from 1 to 65535, not \"99999\""},
		{"control in name", "receivers:\n  - {name: \"a\\nb\", type: exec, command: [/bin/true]}\n",
			"x.yaml:2:12: receivers[0].name: must be printable text, not \"a\\nb\""},
		{"reserved label", "labels: {instance: x}\nreceivers:\n  - {name: a, type: exec, command: [/bin/true]}\n",
			"x.yaml:1:20: labels.instance: a label pmie sets itself (alertname, host, instance, pmie_instance) or reserved (__...)"},
		{"missing program", "receivers:\n  - {name: a, type: exec, command: [/no/such/program]}\ndefault_receiver: a\n",
			"x.yaml:2:37: receivers[0].command[0]: cannot run /no/such/program: stat /no/such/program: no such file or directory"},
		{"url and urls", "receivers:\n  - {name: a, type: alertmanager, url: 'http://a', urls: ['http://b']}\n",
			"x.yaml:2:58: receivers[0].urls: give url or urls, not both"},
		{"bad time zone", "timezone: Mars/Olympus\nreceivers:\n  - {name: a, type: exec, command: [/bin/true]}\n",
			"x.yaml:1:11: timezone: unknown time zone \"Mars/Olympus\""},
		{"window", "time_windows:\n  - {name: w, cron: 'TZ=UTC'}\n  - {name: w, cron: '0 25 * * *', duration: 1h}\n  - {name: v, cron: '0 0 30 2 *', duration: 0s}\nreceivers:\n  - {name: a, type: exec, command: [/bin/true]}\n",
			"x.yaml:2:21: time_windows[0].cron: not a cron schedule: \"TZ=UTC\" (a time zone and nothing else)\n" +
				"x.yaml:2:5: time_windows[0].duration: required: how long the window lasts, such as \"2h\"\n" +
				"x.yaml:3:12: time_windows[1].name: time window \"w\" is defined twice\n" +
				"x.yaml:3:21: time_windows[1].cron: end of range (25) above maximum (23): 25\n" +
				"x.yaml:4:21: time_windows[2].cron: \"0 0 30 2 *\" never fires\n" +
				"x.yaml:4:45: time_windows[2].duration: must be a positive duration such as \"10s\" or \"5m\", not \"0s\""},
		{"mute unknown window", "receivers:\n  - {name: a, type: exec, command: [/bin/true]}\nroutes:\n  - {receivers: [a], mute_when: [night]}\n",
			"x.yaml:4:33: routes[0].mute_when: no time window is named \"night\""},
		{"heartbeat", "receivers:\n  - {name: a, type: exec, command: [/bin/true]}\nheartbeats:\n  - {name: hb, cron: '@every 1m', receivers: [b]}\n  - {cron: '@hourly', receivers: [a]}\n",
			"x.yaml:4:46: heartbeats[0].receivers: no receiver is named \"b\"\n" +
				"x.yaml:5:5: heartbeats[1].name: required"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("x.yaml", []byte(c.yaml))
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != c.want {
				t.Errorf("error:\n%s\nwant:\n%s", err, c.want)
			}
		})
	}
}

func TestLoadMissing(t *testing.T) {
	_, err := Load("testdata/no-such.yaml")
	if err == nil || !strings.Contains(err.Error(), "testdata/no-such.yaml") {
		t.Errorf("error = %v", err)
	}
}

// FuzzParse checks that no configuration makes the loader panic, and that
// what it accepts starts and runs (issue 13): a Notifier is started on it
// (its HTTP requests fail at once, and exec receivers run nothing), an
// alert is routed and fired, every heartbeat beats, the configuration is
// applied again, and the Notifier is closed, all without a panic.
// Minimizing a new input can take long here (viper, YAML and expr are
// large): run it with -fuzzminimizetime 3s.
func FuzzParse(f *testing.F) {
	f.Add([]byte("receivers:\n  - {name: a, type: exec, command: [/bin/true]}\nroutes:\n  - {condition: 'any(values, # > 3)', receivers: [a]}\n"))
	f.Add([]byte("labels: {a: 1}\nreceivers: [{name: b, type: alertmanager, url: 'http://h'}]\ndefault_receiver: b\n"))
	f.Add([]byte("timezone: Europe/Paris\ntime_windows: [{name: w, cron: '0 22 * * *', duration: 8h}]\n" +
		"receivers: [{name: b, type: alertmanager, urls: ['http://h:9093', 'http://i'], queue: 5, headers: {X-A: b}}]\n" +
		"routes: [{receivers: [b], mute_when: [w]}]\nheartbeats: [{name: hb, cron: '@every 1m', receivers: [b]}]\n"))
	f.Add([]byte("receivers:\n  - {name: w, type: webhook, url: 'http://h/x', send_resolved: false}\n" +
		"  - {name: e, type: exec, command: [/bin/true], send_resolved: true}\nroutes: [{receivers: [w, e]}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse("f.yaml", data)
		if err != nil {
			if cfg != nil {
				t.Fatal("a config with an error")
			}
			return
		}
		names := map[string]bool{}
		for _, r := range cfg.Receivers {
			names[r.Name] = true
		}
		for _, r := range cfg.Routes {
			for _, n := range r.Receivers {
				if !names[n] {
					t.Fatalf("route to unknown receiver %q accepted", n)
				}
			}
		}
		runStartUp(t, cfg)
	})
}

// failing is an HTTP transport that fails every request at once.
type failing struct{}

func (failing) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("no network in fuzzing")
}

// failingClient is an HTTP client whose requests fail at once.
func failingClient() *http.Client { return &http.Client{Transport: failing{}} }

// runStartUp starts a Notifier on cfg and puts it through its paces.
func runStartUp(t *testing.T, cfg *Config) {
	n := New(cfg, Options{Client: failingClient(),
		Exec: func(context.Context, *ReceiverConfig, []string, []byte) error { return nil }})
	ev := sample()
	now := time.Unix(1700000000, 0)
	n.Evaluated(&Evaluation{Key: "k", Rule: "cpu_hot", Time: now, Truth: True,
		Bindings: func() []Binding { return []Binding{{Host: "a", Inst: "\xff", Value: "1"}} },
		Fired:    []*Alert{n.AlertFor(ev)}})
	n.Notify(ev)
	n.mu.Lock()
	beats := n.cfg.Heartbeats
	n.mu.Unlock()
	for i := range beats {
		n.beat(&beats[i], now)
	}
	n.Apply(cfg)
	n.Evaluated(&Evaluation{Key: "k", Rule: "cpu_hot", Time: now.Add(time.Minute), Truth: False})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	n.Close(ctx)
}
