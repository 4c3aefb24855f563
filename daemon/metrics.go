package daemon

import (
	"io"
	"math"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	"github.com/gopcp/pmie/pmapi"
)

// pmie's own metrics, gathered from the engine's counts, the notifier's
// and the reloader's, are shown two ways: in Prometheus's text format at
// /metrics, and in an MMV file that pmcd's mmv PMDA serves (mmv.pmie.*).
// Each family below has its Prometheus name and, if it goes to the MMV
// file too, its name there, with its label naming the instance (a rule,
// receiver or host) as the MMV metric's instance domain.
//
// prometheus/client_golang is not used: linked into pmie its package
// initialisation alone adds about 4.3 MB to the resident size of every
// pmie, daemon or not (measured on the archive replay benchmark, see
// rules/doc.go), more than what is left of the 2.5x budget once alerting
// is linked in. The text format's few rules (escaping, one HELP and TYPE
// per name) are kept here, and tests read /metrics back with
// Prometheus's own parser (expfmt).

// family is one metric, with its samples.
type family struct {
	name, help string
	counter    bool
	mmv        string // name in the MMV file; "" if not there
	indom      string // label naming the MMV instance: "rule", "receiver", "host" or ""
	units      pmapi.Units
	samples    []sample
}

// sample is one value of a family, with its labels (name, value pairs).
type sample struct {
	labels []string
	value  float64
}

// instance is the value of the family's instance label in s.
func (f *family) instance(s *sample) string {
	for i := 0; i+1 < len(s.labels); i += 2 {
		if s.labels[i] == f.indom {
			return s.labels[i+1]
		}
	}
	return ""
}

var count = pmapi.Units{DimCount: 1}
var seconds = pmapi.Units{DimTime: 1, ScaleTime: 3} // PM_TIME_SEC

// gather collects every family's current samples.
func (d *Daemon) gather() []*family {
	var fams []*family
	add := func(f *family) *family { fams = append(fams, f); return f }
	one := func(v float64, labels ...string) []sample { return []sample{{labels, v}} }

	version, goVersion := buildVersion()
	add(&family{name: "pmie_build_info", help: "pmie's version, as labels; always 1",
		samples: one(1, "version", version, "goversion", goVersion)})
	add(&family{name: "pmie_start_time_seconds", help: "When pmie started, seconds since the epoch",
		samples: one(float64(d.start.UnixNano()) / 1e9)})

	t := d.stats.Totals()
	add(&family{name: "pmie_rules", help: "Rules loaded (cond -> action, each rule of a ruleset counted)",
		mmv: "rules", units: count, samples: one(float64(t.NumRules))})
	add(&family{name: "pmie_evaluations_total", help: "Evaluations of rules and expressions",
		counter: true, mmv: "evaluations", units: count, samples: one(float64(t.Evaluations))})
	for _, o := range []struct {
		name string
		v    uint64
	}{{"true", t.True}, {"false", t.False}, {"unknown", t.Unknown}} {
		add(&family{name: "pmie_outcomes_total", help: "Outcomes of rules evaluated, by truth",
			counter: true, mmv: "outcomes." + o.name, units: count, samples: one(float64(o.v), "outcome", o.name)})
	}
	add(&family{name: "pmie_actions_total", help: "Actions run (not those held off)",
		counter: true, mmv: "actions", units: count, samples: one(float64(t.Actions))})
	d.gatherRules(add)
	d.gatherHosts(add)
	d.gatherReceivers(add)
	d.gatherReloads(add)
	return fams
}

// gatherRules adds the per-rule families.
func (d *Daemon) gatherRules(add func(*family) *family) {
	rs := d.stats.Rules()
	fam := func(name, help, mmvName string) *family {
		return add(&family{name: name, help: help, counter: true, mmv: mmvName, indom: "rule", units: count})
	}
	evals := fam("pmie_rule_evaluations_total", "Evaluations of each rule", "rule.evaluations")
	outcomes := []*family{
		fam("pmie_rule_outcomes_total", "Outcomes of each rule's evaluations, by truth", "rule.true"),
		fam("pmie_rule_outcomes_total", "", "rule.false"),
		fam("pmie_rule_outcomes_total", "", "rule.unknown"),
	}
	actions := fam("pmie_rule_actions_total", "Actions each rule ran (not those held off)", "rule.actions")
	for _, r := range rs {
		evals.samples = append(evals.samples, sample{[]string{"rule", r.Name}, float64(r.Evaluations)})
		for i, o := range []struct {
			name string
			v    uint64
		}{{"true", r.True}, {"false", r.False}, {"unknown", r.Unknown}} {
			outcomes[i].samples = append(outcomes[i].samples, sample{[]string{"rule", r.Name, "outcome", o.name}, float64(o.v)})
		}
		actions.samples = append(actions.samples, sample{[]string{"rule", r.Name}, float64(r.Actions)})
	}
}

// gatherHosts adds the per-host families.
func (d *Daemon) gatherHosts(add func(*family) *family) {
	hs := d.stats.Hosts()
	fetches := add(&family{name: "pmie_host_fetches_total", help: "Fetches from each live host, answered or failed",
		counter: true, mmv: "host.fetches", indom: "host", units: count})
	errs := add(&family{name: "pmie_host_fetch_errors_total", help: "Fetches from each live host that failed",
		counter: true, mmv: "host.errors", indom: "host", units: count})
	took := add(&family{name: "pmie_host_fetch_seconds_total", help: "Time spent waiting for each live host's fetches",
		counter: true, mmv: "host.fetch_time", indom: "host", units: seconds})
	last := add(&family{name: "pmie_host_fetch_last_seconds", help: "How long each live host's last fetch took",
		mmv: "host.last_fetch_time", indom: "host", units: seconds})
	for _, h := range hs {
		l := []string{"host", h.Conn}
		fetches.samples = append(fetches.samples, sample{l, float64(h.Fetches)})
		errs.samples = append(errs.samples, sample{l, float64(h.Errors)})
		took.samples = append(took.samples, sample{l, h.Time.Seconds()})
		last.samples = append(last.samples, sample{l, h.Last.Seconds()})
	}
}

// gatherReceivers adds the per-receiver families.
func (d *Daemon) gatherReceivers(add func(*family) *family) {
	fam := func(name, help, mmvName string, counter bool) *family {
		return add(&family{name: name, help: help, counter: counter, mmv: mmvName, indom: "receiver", units: count})
	}
	sent := fam("pmie_alerts_sent_total", "Alerts each receiver sent (for Alertmanager: alert states posted)", "receiver.sent", true)
	failed := fam("pmie_alerts_failed_total", "Alerts each receiver failed to send", "receiver.failed", true)
	dropped := fam("pmie_alerts_dropped_total", "Alerts dropped, each receiver's queue being full", "receiver.dropped", true)
	queued := fam("pmie_alerts_queue_length", "Alerts waiting for each receiver", "receiver.queued", false)
	a := d.alerting()
	if a == nil {
		return
	}
	st := a.Stats()
	for _, name := range sortedNames(st) {
		s := st[name]
		l := []string{"receiver", name}
		sent.samples = append(sent.samples, sample{l, float64(s.Sent)})
		failed.samples = append(failed.samples, sample{l, float64(s.Failed)})
		dropped.samples = append(dropped.samples, sample{l, float64(s.Dropped)})
		queued.samples = append(queued.samples, sample{l, float64(s.Waiting)})
	}
}

// gatherReloads adds the reloads' families.
func (d *Daemon) gatherReloads(add func(*family) *family) {
	var ok, failed int64
	good, when := 1.0, 0.0
	if r := d.reloader.Load(); r != nil {
		ok, failed = r.Counts()
		if last := r.Last(); last != nil {
			if last.Err != nil {
				good = 0
			}
			when = float64(last.Time.UnixNano()) / 1e9
		}
	}
	add(&family{name: "pmie_reloads_total", help: "Reloads of the configuration, by result", counter: true,
		mmv: "reloads.success", units: count, samples: []sample{{[]string{"result", "success"}, float64(ok)}}})
	add(&family{name: "pmie_reloads_total", counter: true,
		mmv: "reloads.failure", units: count, samples: []sample{{[]string{"result", "failure"}, float64(failed)}}})
	add(&family{name: "pmie_config_last_reload_successful", help: "Whether the last reload succeeded (1 if none was tried)",
		samples: []sample{{nil, good}}})
	add(&family{name: "pmie_config_last_reload_timestamp_seconds", help: "When the last reload was tried, seconds since the epoch (0 if none)",
		samples: []sample{{nil, when}}})
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// buildVersion is pmie's version and the Go version it was built with.
func buildVersion() (version, goVersion string) {
	version = "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		version = bi.Main.Version
	}
	return version, runtime.Version()
}

// writeText writes the families in Prometheus's text exposition format
// (version 0.0.4): families of one name together, with one HELP and TYPE.
func writeText(w io.Writer, fams []*family) error {
	var b strings.Builder
	seen := map[string]bool{}
	for _, f := range fams {
		if !seen[f.name] {
			seen[f.name] = true
			help := f.help
			for _, g := range fams {
				if g.name == f.name && help == "" {
					help = g.help
				}
			}
			typ := "gauge"
			if f.counter {
				typ = "counter"
			}
			b.WriteString("# HELP " + f.name + " " + escapeHelp(help) + "\n")
			b.WriteString("# TYPE " + f.name + " " + typ + "\n")
			for _, g := range fams {
				if g.name == f.name {
					writeSamples(&b, g)
				}
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSamples writes a family's samples.
func writeSamples(b *strings.Builder, f *family) {
	for _, s := range f.samples {
		b.WriteString(f.name)
		if len(s.labels) > 0 {
			b.WriteByte('{')
			for i := 0; i+1 < len(s.labels); i += 2 {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(s.labels[i] + `="` + escapeLabel(s.labels[i+1]) + `"`)
			}
			b.WriteByte('}')
		}
		b.WriteByte(' ')
		b.WriteString(formatValue(s.value))
		b.WriteByte('\n')
	}
}

var helpEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
var labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)

func escapeHelp(s string) string { return helpEscaper.Replace(strings.ToValidUTF8(s, "\uFFFD")) }

func escapeLabel(s string) string { return labelEscaper.Replace(strings.ToValidUTF8(s, "\uFFFD")) }

// formatValue writes a value as the text format wants it.
func formatValue(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
