// Package wire is what pmie and its alert sender, pmie-notify, say to
// each other: the daemon configuration's settings pmie needs (which
// pmie-notify reads and checks, with viper), and the messages that pass
// between the two processes, one JSON object a line, pmie's on
// pmie-notify's standard input and pmie-notify's on its standard output.
//
// It is kept small, with nothing but encoding/json under it, because
// pmie links it: see rules/doc.go for why alerting runs in a process of
// its own.
package wire

import (
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/gopcp/pmie/daemon/fleet"
	"github.com/gopcp/pmie/notify/alert"
)

// Settings are what pmie takes from the daemon configuration file: the
// rules' files and sources, and its own endpoints.
type Settings struct {
	File         string   `json:"file"`
	RuleFiles    []string `json:"rule_files,omitempty"`
	DerivedFiles []string `json:"derived_files,omitempty"`
	Host         string   `json:"host,omitempty"`
	Local        bool     `json:"local,omitempty"`
	Interval     string   `json:"interval,omitempty"`
	Listen       string   `json:"listen,omitempty"`
	MMV          string   `json:"mmv,omitempty"`
	Watch        bool     `json:"watch"`
	Alerting     bool     `json:"alerting"` // the file configures receivers
	// Fleet, if set, is the many hosts pmie evaluates, each with its own
	// rule files, instead of one default host.
	Fleet *fleet.Config `json:"fleet,omitempty"`
	// StateFile, if set, is where pmie keeps what it must not forget
	// over a restart: the actions' holdoff times and the alerts firing.
	StateFile string `json:"state_file,omitempty"`
}

// Files are the files the settings come from: the file itself, the rule
// files, the derived metric files, and a fleet's hosts files, control
// files and rule files.
func (s *Settings) Files() []string {
	out := append([]string{s.File}, s.RuleFiles...)
	out = append(out, s.DerivedFiles...)
	if s.Fleet != nil {
		out = append(out, s.Fleet.Files...)
		seen := map[string]bool{}
		for _, f := range out {
			seen[f] = true
		}
		for _, m := range s.Fleet.Members {
			for _, f := range m.RuleFiles {
				if !seen[f] {
					seen[f] = true
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// Message is one line between the processes; Type says which fields
// matter.
type Message struct {
	Type string `json:"type"`

	// "config" (pmie): put this configuration (the file's contents, as
	// pmie checked them) in force.
	File string `json:"file,omitempty"`
	YAML []byte `json:"yaml,omitempty"`

	// "eval" (pmie): a group of rules was evaluated at Time.
	// "removed" (pmie): the rules of Keys are gone (a reload), at Time.
	// "resume" (pmie, to a restarted pmie-notify): the rules still true
	// and the alerts they fired, to track again (not sent again to exec
	// and webhook receivers).
	Time  time.Time `json:"time,omitzero"`
	Rules []Rule    `json:"rules,omitempty"`
	Keys  []string  `json:"keys,omitempty"`

	// "ping" (pmie) and "pong" (pmie-notify): are you there?
	// "want" (pmie-notify): a snapshot, please; "snapshot" (pmie): here.
	// "reload" (pmie-notify): reload, as POST /-/reload asks (Reason);
	// "reloaded" (pmie): done, or Error.
	Seq      int64     `json:"seq,omitempty"`
	Snapshot *Snapshot `json:"snapshot,omitempty"`
	Reason   string    `json:"reason,omitempty"`
	Error    string    `json:"error,omitempty"`

	// "stats" (pmie-notify): each receiver's counts.
	Receivers map[string]ReceiverStats `json:"receivers,omitempty"`
}

// Snapshot is pmie's state as the HTTP endpoint shows it: the engine's
// counts, the reloads', and each rule's state at its last evaluation.
type Snapshot struct {
	Start   time.Time    `json:"start"`
	Ready   bool         `json:"ready"` // rules have been evaluated
	Totals  Totals       `json:"totals"`
	Rules   []RuleView   `json:"rules"` // in the engine's order
	Hosts   []HostCounts `json:"hosts,omitempty"`
	Reloads Reloads      `json:"reloads"`
	Fleet   *FleetCounts `json:"fleet,omitempty"`
	// Receivers are the alert receivers' counts (filled in by whoever
	// has them).
	Receivers map[string]ReceiverStats `json:"receivers,omitempty"`
}

// Counts are counts of evaluations and their outcomes (rules.Counts).
type Counts struct {
	Evaluations uint64 `json:"evaluations"`
	True        uint64 `json:"true"`
	False       uint64 `json:"false"`
	Unknown     uint64 `json:"unknown"`
	Actions     uint64 `json:"actions"`
	// EvalSeconds and LastEvalSeconds are how long the evaluations took,
	// all of them and the last one (actions run included); zero when
	// they are not timed.
	EvalSeconds     float64 `json:"eval_seconds,omitempty"`
	LastEvalSeconds float64 `json:"last_eval_seconds,omitempty"`
}

// Totals are the process's counts.
type Totals struct {
	Counts
	NumRules int `json:"num_rules"`
	// Lag and MaxLag are how long after they were due live evaluations
	// finished, in seconds: the last (the longest of a fleet's members'
	// last), and the longest so far.
	Lag    float64 `json:"lag,omitempty"`
	MaxLag float64 `json:"max_lag,omitempty"`
}

// RuleView is one rule: its counts, and its state at its last evaluation.
type RuleView struct {
	Counts
	Key, Name, File string
	Delta           float64
	Alerting        bool // a rule with actions (not an expression)
	Evaluated       time.Time
	Truth           int       // Unknown, False or True
	Since           time.Time // when it became true
	Value           string    // its value as pmie -v prints it
	Bindings        []BindingView
}

// BindingView is one host and instance making a rule true.
type BindingView struct {
	Host, Inst, Value string
	Since             time.Time
}

// HostCounts are a host's fetches (live, or an archive's).
type HostCounts struct {
	Conn             string
	Fetches, Errors  uint64
	Seconds, LastSec float64 // time spent on them; the last one's
	Down             bool    `json:",omitempty"` // it cannot be reached now
}

// FleetCounts are a fleet's: its members (this shard's), those the
// configuration names (every shard's), the shard, and the members'
// hosts that cannot be reached.
type FleetCounts struct {
	Members, Named int
	Shard, Shards  int
	Down           int
}

// Reloads are the reloads' counts and the last one's outcome.
type Reloads struct {
	OK, Failed int64
	Last       time.Time // zero if none
	LastError  string
}

// Rule is a rule with actions as an evaluation left it.
type Rule struct {
	Key   string `json:"key"`
	Name  string `json:"name"`
	Truth int    `json:"truth"` // 0 unknown, 1 false, 2 true
	// Bindings are the hosts, instances and values making it true.
	Bindings []alert.Binding `json:"bindings,omitempty"`
	// Fired are the alerts for the actions it fired.
	Fired []*alert.Alert `json:"fired,omitempty"`
}

// The truths of Rule.Truth.
const (
	Unknown = 0
	False   = 1
	True    = 2
)

// ReceiverStats count what happened to one receiver's alerts.
type ReceiverStats struct {
	Sent    int `json:"sent"`
	Failed  int `json:"failed"`
	Dropped int `json:"dropped"`
	Waiting int `json:"waiting"`
}

// CheckListen checks an HTTP endpoint's address: host:port, or :port.
func CheckListen(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("not HOST:PORT: %q", addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("port must be from 0 to 65535, not %q", port)
	}
	return nil
}
