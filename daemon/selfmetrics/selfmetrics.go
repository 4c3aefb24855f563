// Package selfmetrics is pmie's own metrics, made from a snapshot of its
// state (daemon/wire): the engine's counts per rule and in all, per live
// host, per alert receiver, and the reloads'. They are shown two ways: in
// Prometheus's text format at the HTTP endpoint's /metrics (written by
// pmie-notify), and in an MMV file that pmcd's mmv PMDA serves as
// mmv.pmie.* (written by pmie). Each Family has its Prometheus name and,
// if it goes to the MMV file too, its name there, with the label naming
// its instance (a rule, receiver or host) as the MMV metric's instance
// domain.
//
// The package writes neither format: pmie-notify's daemon/web hands the
// families to prometheus/client_golang, and pmie's daemon writes the MMV
// file. So pmie, which uses the families for its MMV file, does not link
// client_golang.
package selfmetrics

import (
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"

	"github.com/gopcp/pmie/daemon/wire"
	"github.com/gopcp/pmie/pmapi"
)

// Family is one metric, with its samples.
type Family struct {
	Name, Help string
	Counter    bool
	MMV        string // name in the MMV file; "" if not there
	Indom      string // label naming the MMV instance: "rule", "receiver", "host" or ""
	Units      pmapi.Units
	Samples    []Sample
}

// Sample is one value of a family, with its labels (name, value pairs).
type Sample struct {
	Labels []string
	Value  float64
}

// Instance is the value of the family's instance label in s.
func (f *Family) Instance(s *Sample) string {
	for i := 0; i+1 < len(s.Labels); i += 2 {
		if s.Labels[i] == f.Indom {
			return s.Labels[i+1]
		}
	}
	return ""
}

// Units of the families.
var (
	Count   = pmapi.Units{DimCount: 1}
	Seconds = pmapi.Units{DimTime: 1, ScaleTime: 3} // PM_TIME_SEC
)

// one is a family's one sample, of value v and labels.
func one(v float64, labels ...string) []Sample { return []Sample{{labels, v}} }

// Families are the metrics of snapshot s.
func Families(s *wire.Snapshot) []*Family {
	var fams []*Family
	add := func(f *Family) *Family { fams = append(fams, f); return f }

	version, goVersion := buildVersion()
	add(&Family{Name: "pmie_build_info", Help: "pmie's version, as labels; always 1",
		Samples: one(1, "version", version, "goversion", goVersion)})
	add(&Family{Name: "pmie_start_time_seconds", Help: "When pmie started, seconds since the epoch",
		Samples: one(float64(s.Start.UnixNano()) / 1e9)})

	t := s.Totals
	add(&Family{Name: "pmie_rules", Help: "Rules loaded (cond -> action, each rule of a ruleset counted)",
		MMV: "rules", Units: Count, Samples: one(float64(t.NumRules))})
	add(&Family{Name: "pmie_evaluations_total", Help: "Evaluations of rules and expressions",
		Counter: true, MMV: "evaluations", Units: Count, Samples: one(float64(t.Evaluations))})
	for _, o := range []struct {
		name string
		v    uint64
	}{{"true", t.True}, {"false", t.False}, {"unknown", t.Unknown}} {
		add(&Family{Name: "pmie_outcomes_total", Help: "Outcomes of rules evaluated, by truth",
			Counter: true, MMV: "outcomes." + o.name, Units: Count, Samples: one(float64(o.v), "outcome", o.name)})
	}
	add(&Family{Name: "pmie_actions_total", Help: "Actions run (not those held off)",
		Counter: true, MMV: "actions", Units: Count, Samples: one(float64(t.Actions))})
	add(&Family{Name: "pmie_evaluation_lag_seconds", Help: "How long after it was due the last live evaluation finished (a fleet: the longest of its members')",
		MMV: "lag", Units: Seconds, Samples: one(t.Lag)})
	add(&Family{Name: "pmie_evaluation_lag_max_seconds", Help: "The longest a live evaluation has finished after it was due",
		MMV: "max_lag", Units: Seconds, Samples: one(t.MaxLag)})
	rules(s, add)
	hosts(s, add)
	fleet(s, add)
	receivers(s, add)
	reloads(s, add)
	return fams
}

// rules adds the per-rule families.
func rules(s *wire.Snapshot, add func(*Family) *Family) {
	rs := s.Rules
	fam := func(name, help, mmvName string) *Family {
		return add(&Family{Name: name, Help: help, Counter: true, MMV: mmvName, Indom: "rule", Units: Count})
	}
	evals := fam("pmie_rule_evaluations_total", "Evaluations of each rule", "rule.evaluations")
	outcomes := []*Family{
		fam("pmie_rule_outcomes_total", "Outcomes of each rule's evaluations, by truth", "rule.true"),
		fam("pmie_rule_outcomes_total", "", "rule.false"),
		fam("pmie_rule_outcomes_total", "", "rule.unknown"),
	}
	actions := fam("pmie_rule_actions_total", "Actions each rule ran (not those held off)", "rule.actions")
	spent := add(&Family{Name: "pmie_rule_evaluation_seconds_total", Help: "Time spent evaluating each rule (its actions run included)",
		Counter: true, MMV: "rule.eval_time", Indom: "rule", Units: Seconds})
	last := add(&Family{Name: "pmie_rule_last_evaluation_seconds", Help: "How long each rule's last evaluation took",
		MMV: "rule.last_eval_time", Indom: "rule", Units: Seconds})
	for _, r := range rs {
		evals.Samples = append(evals.Samples, Sample{[]string{"rule", r.Name}, float64(r.Evaluations)})
		for i, o := range []struct {
			name string
			v    uint64
		}{{"true", r.True}, {"false", r.False}, {"unknown", r.Unknown}} {
			outcomes[i].Samples = append(outcomes[i].Samples, Sample{[]string{"rule", r.Name, "outcome", o.name}, float64(o.v)})
		}
		actions.Samples = append(actions.Samples, Sample{[]string{"rule", r.Name}, float64(r.Actions)})
		spent.Samples = append(spent.Samples, Sample{[]string{"rule", r.Name}, r.EvalSeconds})
		last.Samples = append(last.Samples, Sample{[]string{"rule", r.Name}, r.LastEvalSeconds})
	}
}

// hosts adds the per-host families.
func hosts(s *wire.Snapshot, add func(*Family) *Family) {
	hs := s.Hosts
	fetches := add(&Family{Name: "pmie_host_fetches_total", Help: "Fetches from each host (live, or archive), answered or failed",
		Counter: true, MMV: "host.fetches", Indom: "host", Units: Count})
	errs := add(&Family{Name: "pmie_host_fetch_errors_total", Help: "Fetches from each host (live, or archive) that failed",
		Counter: true, MMV: "host.errors", Indom: "host", Units: Count})
	took := add(&Family{Name: "pmie_host_fetch_seconds_total", Help: "Time spent waiting for each host's fetches (live, or archive)",
		Counter: true, MMV: "host.fetch_time", Indom: "host", Units: Seconds})
	last := add(&Family{Name: "pmie_host_fetch_last_seconds", Help: "How long each host's last fetch took (live, or archive)",
		MMV: "host.last_fetch_time", Indom: "host", Units: Seconds})
	up := add(&Family{Name: "pmie_host_up", Help: "Whether each live host can be reached (1) or not (0)",
		MMV: "host.up", Indom: "host", Units: Count})
	for _, h := range hs {
		l := []string{"host", h.Conn}
		up.Samples = append(up.Samples, Sample{l, float64(boolNum(!h.Down))})
		fetches.Samples = append(fetches.Samples, Sample{l, float64(h.Fetches)})
		errs.Samples = append(errs.Samples, Sample{l, float64(h.Errors)})
		took.Samples = append(took.Samples, Sample{l, h.Seconds})
		last.Samples = append(last.Samples, Sample{l, h.LastSec})
	}
}

func boolNum(b bool) int {
	if b {
		return 1
	}
	return 0
}

// fleet adds the families of a fleet: its members and shard.
func fleet(s *wire.Snapshot, add func(*Family) *Family) {
	if s.Fleet == nil {
		return
	}
	f := s.Fleet
	add(&Family{Name: "pmie_fleet_members", Help: "Members (hosts) of the fleet this pmie evaluates, its shard's",
		MMV: "fleet.members", Units: Count, Samples: one(float64(f.Members))})
	add(&Family{Name: "pmie_fleet_members_named", Help: "Members the fleet's configuration names, every shard's",
		MMV: "fleet.named", Units: Count, Samples: one(float64(f.Named))})
	add(&Family{Name: "pmie_fleet_shard", Help: "This pmie's shard (its number, and the shard count as a label)",
		MMV: "fleet.shard", Units: Count, Samples: one(float64(f.Shard), "shards", strconv.Itoa(f.Shards))})
	add(&Family{Name: "pmie_fleet_hosts_down", Help: "Members' hosts that cannot be reached now",
		MMV: "fleet.down", Units: Count, Samples: one(float64(f.Down))})
}

// receivers adds the per-receiver families.
func receivers(s *wire.Snapshot, add func(*Family) *Family) {
	fam := func(name, help, mmvName string, counter bool) *Family {
		return add(&Family{Name: name, Help: help, Counter: counter, MMV: mmvName, Indom: "receiver", Units: Count})
	}
	sent := fam("pmie_alerts_sent_total", "Alerts each receiver sent (for Alertmanager: alert states posted)", "receiver.sent", true)
	failed := fam("pmie_alerts_failed_total", "Alerts each receiver failed to send", "receiver.failed", true)
	dropped := fam("pmie_alerts_dropped_total", "Alerts dropped, each receiver's queue being full", "receiver.dropped", true)
	queued := fam("pmie_alerts_queue_length", "Alerts waiting for each receiver", "receiver.queued", false)
	st := s.Receivers
	for _, name := range SortedNames(st) {
		s := st[name]
		l := []string{"receiver", name}
		sent.Samples = append(sent.Samples, Sample{l, float64(s.Sent)})
		failed.Samples = append(failed.Samples, Sample{l, float64(s.Failed)})
		dropped.Samples = append(dropped.Samples, Sample{l, float64(s.Dropped)})
		queued.Samples = append(queued.Samples, Sample{l, float64(s.Waiting)})
	}
}

// reloads adds the reloads' families.
func reloads(s *wire.Snapshot, add func(*Family) *Family) {
	ok, failed := s.Reloads.OK, s.Reloads.Failed
	good, when := 1.0, 0.0
	if !s.Reloads.Last.IsZero() {
		if s.Reloads.LastError != "" {
			good = 0
		}
		when = float64(s.Reloads.Last.UnixNano()) / 1e9
	}
	add(&Family{Name: "pmie_reloads_total", Help: "Reloads of the configuration, by result", Counter: true,
		MMV: "reloads.success", Units: Count, Samples: []Sample{{[]string{"result", "success"}, float64(ok)}}})
	add(&Family{Name: "pmie_reloads_total", Counter: true,
		MMV: "reloads.failure", Units: Count, Samples: []Sample{{[]string{"result", "failure"}, float64(failed)}}})
	add(&Family{Name: "pmie_config_last_reload_successful", Help: "Whether the last reload succeeded (1 if none was tried)",
		Samples: []Sample{{nil, good}}})
	add(&Family{Name: "pmie_config_last_reload_timestamp_seconds", Help: "When the last reload was tried, seconds since the epoch (0 if none)",
		Samples: []Sample{{nil, when}}})
}

// SortedNames lists the keys of m in order.
func SortedNames[V any](m map[string]V) []string {
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
