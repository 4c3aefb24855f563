package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gopcp/pmie/daemon/fleet"
	"github.com/gopcp/pmie/internal/yamlcfg"
	"github.com/gopcp/pmie/pmapi"
)

// fleetKeys are the keys of the fleet section, classKeys those of a
// class.
var (
	fleetKeys = []string{"hosts", "hosts_files", "control", "classes", "log_file", "shard", "connections",
		"fetches", "backoff"}
	classKeys = []string{"name", "hosts", "hosts_files", "rule_files", "interval", "log_file"}
)

// decodeFleet reads the fleet section: the hosts of fleet.hosts and
// fleet.hosts_files (with the file's rule_files and sources.interval),
// those of each class, and those of PCP's control files (each line with
// its own rule files), and the bounds on the work done for them.
func decodeFleet(d *yamlcfg.Decoder, m map[string]any, cfg *Config, dir string) *fleet.Config {
	if _, ok := m["fleet"]; !ok {
		return nil
	}
	fm := d.Mapping(m, "", "fleet")
	if fm == nil {
		fm = map[string]any{}
	}
	d.Unknown(fm, "fleet", fleetKeys)
	f := &fleet.Config{Connections: fleet.DefaultConnections, Fetches: fleet.DefaultFetches,
		BackoffMin: fleet.DefaultBackoffMin, BackoffMax: fleet.DefaultBackoffMax}
	r := &fleetReader{d: d, f: f, dir: dir, where: map[string]string{}}
	if hosts := r.hosts(fm, "fleet"); len(hosts) > 0 {
		if len(cfg.RuleFiles) == 0 {
			d.Errorf("fleet.hosts", "the hosts of fleet.hosts and fleet.hosts_files are given the rule_files, and there are none")
		}
		r.add(hosts, "", cfg.RuleFiles, cfg.Interval, d.Str(fm, "fleet", "log_file"))
	}
	for i, x := range d.List(fm, "fleet", "classes") {
		key := fmt.Sprintf("fleet.classes[%d]", i)
		cm, ok := x.(map[string]any)
		if !ok {
			d.Errorf(key, "must be a mapping, not %s", yamlcfg.KindOf(x))
			continue
		}
		r.class(cm, key)
	}
	if ctl := d.Str(fm, "fleet", "control"); ctl != "" {
		r.control(absolute(ctl, dir))
	}
	if f.Shard = d.Str(fm, "fleet", "shard"); f.Shard != "" {
		if _, err := fleet.ParseShard(f.Shard); err != nil {
			d.Errorf("fleet.shard", "%v", err)
		}
	}
	d.Int(fm, "fleet", "connections", &f.Connections, 1, 100000)
	d.Int(fm, "fleet", "fetches", &f.Fetches, 1, 100000)
	if b := d.Mapping(fm, "fleet", "backoff"); b != nil {
		d.Unknown(b, "fleet.backoff", []string{"min", "max"})
		d.Duration(b, "fleet.backoff", "min", &f.BackoffMin, 100*time.Millisecond, 24*time.Hour)
		d.Duration(b, "fleet.backoff", "max", &f.BackoffMax, 100*time.Millisecond, 24*time.Hour)
		if f.BackoffMax < f.BackoffMin {
			d.Errorf("fleet.backoff.max", "must be at least min (%v), not %v", f.BackoffMin, f.BackoffMax)
		}
	}
	switch {
	case len(f.Members) == 0 && !d.Failed():
		d.Errorf("fleet", "names no hosts: give hosts, hosts_files, classes or control")
	case cfg.Host != "" || cfg.Local:
		d.Errorf("sources", "a fleet names its hosts: give sources.host or local, or fleet, not both")
	}
	return f
}

// fleetReader collects a fleet's members.
type fleetReader struct {
	d     *yamlcfg.Decoder
	f     *fleet.Config
	dir   string
	where map[string]string // member ID -> where it was named
}

// hosts reads the hosts and hosts_files of m (at key).
func (r *fleetReader) hosts(m map[string]any, key string) []fleet.Member {
	var out []fleet.Member
	for i, h := range r.d.StrList(m, key, "hosts") {
		if h == "" || strings.ContainsAny(h, " \t\n") {
			r.d.Errorf(fmt.Sprintf("%s.hosts[%d]", key, i), "not a host specification: %q", h)
			continue
		}
		out = append(out, fleet.Member{Host: h, From: r.d.Place(fmt.Sprintf("%s.hosts[%d]", key, i))})
	}
	for i, name := range r.d.StrList(m, key, "hosts_files") {
		file := absolute(name, r.dir)
		data, err := os.ReadFile(file)
		if err != nil {
			r.d.Errorf(fmt.Sprintf("%s.hosts_files[%d]", key, i), "%v", err)
			continue
		}
		r.f.Files = append(r.f.Files, file)
		hosts, problems := fleet.ParseHosts(file, string(data))
		r.problems(problems)
		for _, h := range hosts {
			out = append(out, fleet.Member{Host: h, From: file})
		}
	}
	return out
}

// class reads one class: its hosts, rule files, interval and log.
func (r *fleetReader) class(m map[string]any, key string) {
	d := r.d
	d.Unknown(m, key, classKeys)
	name := d.Name(m, key, "name")
	if name == "" {
		d.Errorf(key, "a class needs a name")
	}
	var rules []string
	for i, f := range d.StrList(m, key, "rule_files") {
		f = absolute(f, r.dir)
		if st, err := os.Stat(f); err != nil || st.IsDir() {
			d.Errorf(fmt.Sprintf("%s.rule_files[%d]", key, i), "not a file that can be read: %s", f)
			continue
		}
		rules = append(rules, f)
	}
	if len(rules) == 0 {
		d.Errorf(key, "class %q has no rule_files", name)
	}
	interval := d.Str(m, key, "interval")
	if interval != "" {
		if iv, err := pmapi.ParseInterval(interval); err != nil || iv <= 0 {
			d.Errorf(key+".interval", "not a sample interval such as \"10 sec\" or \"1min\": %q", interval)
		}
	}
	hosts := r.hosts(m, key)
	if len(hosts) == 0 {
		d.Errorf(key, "class %q has no hosts", name)
	}
	r.add(hosts, name, rules, interval, d.Str(m, key, "log_file"))
}

// add adds members of a class with its rule files, interval and log
// (a pattern: %h is the host).
func (r *fleetReader) add(ms []fleet.Member, class string, rules []string, interval, log string) {
	for _, m := range ms {
		m.Class, m.RuleFiles, m.Interval = class, rules, interval
		if log != "" {
			m.Log = absolute(strings.ReplaceAll(log, "%h", strings.ReplaceAll(m.Host, "/", "_")), r.dir)
		}
		r.member(m)
	}
}

// member adds a member, unless one of the same ID is there already.
func (r *fleetReader) member(m fleet.Member) {
	id := m.ID()
	if prev, dup := r.where[id]; dup {
		r.d.Add(fmt.Sprintf("%s: host %s is named again (first in %s)", m.From, m.Host, prev))
		return
	}
	r.where[id] = m.From
	r.f.Members = append(r.f.Members, m)
}

// control reads PCP's control file and its .d directory.
func (r *fleetReader) control(file string) {
	members, problems := fleet.ReadControl(file, fleet.Env{})
	r.f.Files = append(r.f.Files, fleet.ControlFiles(file)...)
	r.problems(problems)
	for _, m := range members {
		r.member(m)
	}
}

// problems reports the errors of control and hosts files, and keeps
// their warnings for pmie's log.
func (r *fleetReader) problems(ps []fleet.Problem) {
	for _, p := range ps {
		if p.Warning {
			r.f.Warnings = append(r.f.Warnings, p.Error())
		} else {
			r.d.Add(p.Error())
		}
	}
}

// absolute is name taken from dir if relative.
func absolute(name, dir string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(dir, name)
}
