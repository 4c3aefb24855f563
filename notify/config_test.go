package notify

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestParseExample(t *testing.T) {
	cfg, err := Load("../examples/alerting.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Receivers) != 3 || len(cfg.Routes) == 0 || cfg.Default == "" {
		t.Fatalf("example config read as %+v", cfg)
	}
}

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
		{"bad yaml", "receivers: [\n", `x.yaml: While parsing config: yaml: line 1: did not find expected node content`},
		{"unknown top key", "recievers: []\n", `x.yaml: recievers: unknown key`},
		{"bad type", "receivers:\n  - {name: a, type: email}\n", `x.yaml: receivers[0].type: must be exec, webhook or alertmanager, not "email"`},
		{"no name", "receivers:\n  - {type: exec, command: [/bin/true]}\n", `x.yaml: receivers[0].name: required`},
		{"not a mapping", "receivers: [3]\n", `x.yaml: receivers[0]: must be a mapping, not a number`},
		{"exec no command", "receivers:\n  - {name: a, type: exec}\n", `x.yaml: receivers[0].command: required: the program and its arguments, as a list`},
		{"exec command string", "receivers:\n  - {name: a, type: exec, command: /bin/true}\n",
			"x.yaml: receivers[0].command: must be a list, not a string\nx.yaml: receivers[0].command: required: the program and its arguments, as a list"},
		{"exec unknown key", "receivers:\n  - {name: a, type: exec, command: [x], url: http://a}\n", `x.yaml: receivers[0].url: unknown key`},
		{"webhook no url", "receivers:\n  - {name: a, type: webhook}\n", `x.yaml: receivers[0].url: required`},
		{"webhook bad url", "receivers:\n  - {name: a, type: webhook, url: 'ftp://x'}\n", `x.yaml: receivers[0].url: must be an http:// or https:// URL, not "ftp://x"`},
		{"bad duration", "receivers:\n  - {name: a, type: webhook, url: 'http://x', timeout: 5}\n",
			`x.yaml: receivers[0].timeout: must be a duration such as "10s" or "5m", not a number`},
		{"negative duration", "receivers:\n  - {name: a, type: webhook, url: 'http://x', backoff: -1s}\n",
			`x.yaml: receivers[0].backoff: must be a positive duration such as "10s" or "5m", not "-1s"`},
		{"bad queue", "receivers:\n  - {name: a, type: webhook, url: 'http://x', queue: 0}\n", `x.yaml: receivers[0].queue: must be a whole number at least 1, not 0`},
		{"resend too long", "receivers:\n  - {name: a, type: alertmanager, url: 'http://x', resend_interval: 10m}\n",
			`x.yaml: receivers[0].resend_interval: must be less than resolve_timeout (5m0s), or alerts resolve while firing`},
		{"duplicate", "receivers:\n  - {name: a, type: exec, command: [x]}\n  - {name: a, type: exec, command: [y]}\n",
			`x.yaml: receivers[1].name: receiver "a" is defined twice`},
		{"bad default", "receivers:\n  - {name: a, type: exec, command: [x]}\ndefault_receiver: b\n", `x.yaml: default_receiver: no receiver is named "b"`},
		{"bad label", "labels: {'1x': y}\nreceivers:\n  - {name: a, type: exec, command: [x]}\n",
			`x.yaml: labels.1x: not a valid label name (letters, digits and _, not first a digit)`},
		{"route unknown receiver", "receivers:\n  - {name: a, type: exec, command: [x]}\nroutes:\n  - {name: r, receivers: [b]}\n",
			`x.yaml: routes[0] (r).receivers: no receiver is named "b"`},
		{"route no receivers", "receivers:\n  - {name: a, type: exec, command: [x]}\nroutes:\n  - {condition: 'true'}\n",
			`x.yaml: routes[0].receivers: required: a list of receiver names`},
		{"route continue", "receivers:\n  - {name: a, type: exec, command: [x]}\nroutes:\n  - {receivers: [a], continue: 'yes'}\n",
			`x.yaml: routes[0].continue: must be true or false, not a string`},
		{"condition not bool", "receivers:\n  - {name: a, type: exec, command: [x]}\nroutes:\n  - {name: r, condition: 'rule + \"x\"', receivers: [a]}\n",
			"x.yaml: routes[0] (r).condition: expected bool, but got string"},
		{"condition unknown name", "receivers:\n  - {name: a, type: exec, command: [x]}\nroutes:\n  - {condition: 'rules == \"x\"', receivers: [a]}\n",
			"x.yaml: routes[0].condition: unknown name rules (1:1)\n | rules == \"x\"\n | ^"},
		{"condition type error", "receivers:\n  - {name: a, type: exec, command: [x]}\nroutes:\n  - {condition: 'values > 3', receivers: [a]}\n",
			"x.yaml: routes[0].condition: invalid operation: > (mismatched types []float64 and int) (1:8)\n | values > 3\n | .......^"},
		{"several", "receivers:\n  - {name: a, type: webhook, url: 'http://x', timeout: soon, retries: -1}\n",
			"x.yaml: receivers[0].timeout: must be a positive duration such as \"10s\" or \"5m\", not \"soon\"\n" +
				"x.yaml: receivers[0].retries: must be a whole number at least 0, not -1"},
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
// what it accepts is consistent. Minimizing a new input can take long
// here (viper, YAML and expr are large): run it with -fuzzminimizetime 3s.
func FuzzParse(f *testing.F) {
	if data, err := os.ReadFile("../examples/alerting.yaml"); err == nil {
		f.Add(data)
	}
	f.Add([]byte("receivers:\n  - {name: a, type: exec, command: [x]}\nroutes:\n  - {condition: 'any(values, # > 3)', receivers: [a]}\n"))
	f.Add([]byte("labels: {a: 1}\nreceivers: [{name: b, type: alertmanager, url: 'http://h'}]\ndefault_receiver: b\n"))
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
		a := &Alert{Rule: "r", Hosts: []string{}, Insts: []string{}, Labels: cfg.Labels}
		match(cfg.Routes, cfg.Default, a)
	})
}
