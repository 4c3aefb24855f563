package fleet

import (
	"fmt"
	"time"
)

// Member is one host of a fleet, with what it is evaluated with: what
// one pmie of PCP's farm, started as pmie -h HOST -l LOG ARGS, would be
// told.
type Member struct {
	Host      string   `json:"host"`            // host specification, as pmie -h takes it
	Class     string   `json:"class,omitempty"` // the class it belongs to (pmiectl's $class), "" for none
	RuleFiles []string `json:"rule_files"`      // absolute
	Interval  string   `json:"interval,omitempty"`
	// Log is the member's own log (pmie -l): its values, print actions
	// and messages about it go there; "" sends them to pmie's own.
	Log      string `json:"log,omitempty"`
	Verbose  int    `json:"verbose,omitempty"` // 1 -v, 2 -V, 3 -W
	ShowTime bool   `json:"show_time,omitempty"`
	Quiet    bool   `json:"quiet,omitempty"`
	// ConnectTimeout and RequestTimeout are $PMCD_CONNECT_TIMEOUT and
	// $PMCD_REQUEST_TIMEOUT as a control file sets them; 0 leaves
	// pmie's.
	ConnectTimeout time.Duration `json:"connect_timeout,omitempty"`
	RequestTimeout time.Duration `json:"request_timeout,omitempty"`
	// From says where the member is named: a control file's or hosts
	// file's name and line, or the configuration's key.
	From string `json:"from"`
}

// ID identifies a member across reloads: its host, class and log. PCP's
// farm allows several pmie for one host if their logs differ.
func (m Member) ID() string { return m.Class + "\x00" + m.Host + "\x00" + m.Log }

// Problem is something wrong in a control or hosts file, at a line.
type Problem struct {
	File    string
	Line    int
	Warning bool // otherwise an error: the configuration is refused
	Msg     string
}

func (p Problem) Error() string {
	level := "error"
	if p.Warning {
		level = "warning"
	}
	return fmt.Sprintf("%s:%d: %s: %s", p.File, p.Line, level, p.Msg)
}
