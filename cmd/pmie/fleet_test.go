package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/pmcdtest"
	"github.com/gopcp/pmie/internal/realtest"
	"github.com/gopcp/pmie/pmapi"
)

// standIns starts n stand-in pmcd hosts, host00... with ncpu CPUs each
// as cpus gives.
func standIns(t *testing.T, n int, cpus func(i int) uint32) []*pmcdtest.Server {
	var out []*pmcdtest.Server
	for i := range n {
		s := pmcdtest.Start(t, pmcdtest.Sample(fmt.Sprintf("host%02d", i)))
		s.SetValues("hinv.ncpu", []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.U32(cpus(i))}})
		out = append(out, s)
	}
	return out
}

// writeFile writes a file under dir.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const fleetRules = `delta = 200 msec;
many = hinv.ncpu > 4 -> print "many cpus on %h: %v";
load = some_inst kernel.all.load > 0.3 -> print "load %i on %h: %v";
`

// One pmie evaluates every host of a fleet, each with the rules as pmie
// -h HOST would, its print actions in its own log.
func TestFleetHosts(t *testing.T) {
	dir := t.TempDir()
	hosts := standIns(t, 4, func(i int) uint32 { return uint32(2 + 2*i) }) // 2 4 6 8
	writeFile(t, dir, "rules.pmie", fleetRules)
	var specs []string
	for _, h := range hosts {
		specs = append(specs, h.Spec())
	}
	yaml := writeFile(t, dir, "fleet.yaml", "rule_files: [rules.pmie]\nfleet:\n  hosts: ["+strings.Join(specs, ", ")+
		"]\n  log_file: logs/%h.log\n")
	os.Mkdir(filepath.Join(dir, "logs"), 0o755)
	p := startLive(t, "--yaml-config", yaml)
	logOf := func(i int) string {
		b, _ := os.ReadFile(filepath.Join(dir, "logs", specs[i]+".log"))
		return string(b)
	}
	p.waitFor("print actions of every host", 20*time.Second, func() bool {
		for i := range hosts {
			if !strings.Contains(logOf(i), "load 1 minute on host") {
				return false
			}
		}
		return true
	})
	for i := range hosts {
		l := logOf(i)
		name := fmt.Sprintf("host%02d", i)
		if want := "many cpus on " + name; strings.Contains(l, want) != (i >= 2) {
			t.Errorf("host %d's log:\n%s", i, l)
		}
		if strings.Count(l, "load 1 minute on "+name+": 0.5") == 0 || strings.Contains(l, "5 minute") {
			t.Errorf("host %d's log:\n%s", i, l)
		}
		for j := range hosts {
			if j != i && strings.Contains(l, fmt.Sprintf("host%02d", j)) {
				t.Errorf("host %d's log tells of host %d:\n%s", i, j, l)
			}
		}
	}
	if code := p.stop(); code != 0 {
		t.Errorf("exit status %d:\n%s", code, p.errs.String())
	}
}

// distinct is the lines of text without their times (a leading ctime
// stamp, or one in parentheses after a rule's name), each once, sorted.
func distinct(text string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = ctimeRE.ReplaceAllString(l, "")
		if l == "" || seen[l] {
			continue
		}
		seen[l] = true
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

var ctimeRE = regexp.MustCompile(`(^|\()[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d \d{4}(: |\))`)

// A fleet read from PCP's control files gives each host's log what our
// pmie -h HOST with the line's arguments prints: the same values (-v)
// and print actions.
func TestFleetMatchesSingleHost(t *testing.T) {
	dir := t.TempDir()
	hosts := standIns(t, 3, func(i int) uint32 { return uint32(3 + i) })
	hosts[1].SetValues("kernel.all.load", []pmapi.Value{{Inst: 1, Atom: pmapi.F32(2)}, {Inst: 5, Atom: pmapi.F32(0.1)}, {Inst: 15, Atom: pmapi.F32(0.4)}})
	rules := writeFile(t, dir, "rules.pmie", fleetRules+"avg = avg_inst kernel.all.load;\n")
	ctl := "$version=1.1\n"
	for i, h := range hosts {
		ctl += fmt.Sprintf("%s n n %s/h%d/pmie.log -c %s -v\n", h.Spec(), dir, i, rules)
		os.Mkdir(filepath.Join(dir, fmt.Sprintf("h%d", i)), 0o755)
	}
	writeFile(t, dir, "control", ctl)
	yaml := writeFile(t, dir, "fleet.yaml", "fleet:\n  control: control\n")
	p := startLive(t, "--yaml-config", yaml)
	logOf := func(i int) string {
		b, _ := os.ReadFile(fmt.Sprintf("%s/h%d/pmie.log", dir, i))
		return string(b)
	}
	p.waitFor("several evaluations of every host", 20*time.Second, func() bool {
		for i := range hosts {
			if strings.Count(logOf(i), "avg:") < 3 {
				return false
			}
		}
		return true
	})
	p.stop()
	for i, h := range hosts {
		single := startLive(t, "-h", h.Spec(), "-v", "-c", rules)
		single.waitFor("several evaluations", 20*time.Second, func() bool { return strings.Count(single.out.String(), "avg:") >= 3 })
		single.stop()
		got, want := distinct(logOf(i)), distinct(single.out.String())
		if len(got) < 3 || !strings.Contains(strings.Join(got, "\n"), fmt.Sprintf("load 1 minute on host%02d", i)) {
			t.Errorf("host %d: too little logged:\n%s", i, logOf(i))
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("host %d: the fleet logged\n%s\npmie -h %s -v printed\n%s", i, strings.Join(got, "\n"), h.Spec(), strings.Join(want, "\n"))
		}
	}
}

// The same against real pmie, with the real pmcd as the one host.
func TestFleetMatchesRealPmie(t *testing.T) {
	realtest.Require(t, realtest.Pmie, realtest.Pmcd)
	dir := t.TempDir()
	rules := writeFile(t, dir, "rules.pmie", `delta = 1 sec;
cpus = hinv.ncpu > 0 -> print "cpus on %h: %v";
mem = hinv.physmem >= 1 Mbyte;
some = some_inst ( hinv.map.cpu_num >= 0 ) -> print "cpu %i of %h";
`)
	os.Mkdir(filepath.Join(dir, "logs"), 0o755)
	yaml := writeFile(t, dir, "fleet.yaml", "fleet:\n  classes:\n    - name: local\n      hosts: [\"local:\"]\n      rule_files: [rules.pmie]\n      log_file: logs/local.log\n")
	p := startLive(t, "--yaml-config", yaml)
	real, err := exec.Command("pmie", "-h", "local:", "-v", "-T", "3sec", "-c", rules).CombinedOutput()
	if err != nil {
		t.Fatalf("real pmie: %v\n%s", err, real)
	}
	p.stop()
	// the fleet's member has no -v: its log has the print actions
	b, _ := os.ReadFile(filepath.Join(dir, "logs", "local.log"))
	var actions []string
	for _, l := range distinct(string(real)) {
		if strings.HasPrefix(l, "cpu ") || strings.HasPrefix(l, "cpus on ") {
			actions = append(actions, l)
		}
	}
	got := distinct(string(b))
	if len(actions) < 2 || strings.Join(got, "\n") != strings.Join(actions, "\n") {
		t.Errorf("the fleet logged\n%s\nreal pmie -h local: printed\n%s", strings.Join(got, "\n"), real)
	}
}

// A reload changes the fleet as one transaction: a host added to the
// hosts file starts, one removed stops (its alerts resolve), members
// whose files are unchanged carry on (their held-off actions stay held
// off), and a broken rule file changes nothing.
func TestFleetReload(t *testing.T) {
	dir := t.TempDir()
	hosts := standIns(t, 3, func(int) uint32 { return 16 })
	hook, srv := newAlertServer(t)
	writeFile(t, dir, "rules.pmie", "delta = 200 msec;\nmany = hinv.ncpu > 8 -> print 10 min \"many on %h\";\n")
	hostsFile := writeFile(t, dir, "hosts", hosts[0].Spec()+"\n"+hosts[1].Spec()+"\n")
	os.Mkdir(filepath.Join(dir, "logs"), 0o755)
	yaml := writeFile(t, dir, "fleet.yaml", "rule_files: [rules.pmie]\nfleet:\n  hosts_files: [hosts]\n  log_file: logs/%h.log\n"+
		"receivers: [{name: hook, type: webhook, url: '"+srv.URL+"/hook'}]\ndefault_receiver: hook\n")
	p := startLive(t, "--yaml-config", yaml)
	logOf := func(i int) string {
		b, _ := os.ReadFile(filepath.Join(dir, "logs", hosts[i].Spec()+".log"))
		return string(b)
	}
	p.waitFor("two members' actions", 20*time.Second, func() bool { return hook.count("/hook") == 2 })
	saveOver(t, hostsFile, hosts[1].Spec()+"\n"+hosts[2].Spec()+"\n")
	p.waitFor("the third member's action", 20*time.Second, func() bool { return strings.Contains(logOf(2), "many on host02") })
	p.waitFor("the reload logged", 10*time.Second, func() bool {
		return strings.Contains(p.errs.String(), "configuration reloaded: 2 rules (1 kept, 1 new, 1 removed)")
	})
	saveOver(t, filepath.Join(dir, "rules.pmie"), "delta = 200 msec;\nmany = hinv.ncpu >>> 8;\n")
	p.waitFor("the broken file refused", 10*time.Second, func() bool {
		return strings.Contains(p.errs.String(), "the running configuration is kept")
	})
	time.Sleep(time.Second)
	var firing, resolved []string
	hook.mu.Lock()
	for _, b := range hook.bodies["/hook"] {
		if strings.Contains(b, `"status":"resolved"`) {
			resolved = append(resolved, b)
		} else {
			firing = append(firing, b)
		}
	}
	hook.mu.Unlock()
	if len(firing) != 3 {
		t.Errorf("%d alerts sent, want 3 (held off actions must not run again): %q", len(firing), firing)
	}
	if len(resolved) != 1 || !strings.Contains(resolved[0], "many on host00") {
		t.Errorf("resolved: %q, want host00's alert (its member removed)", resolved)
	}
	if strings.Count(logOf(1), "many on host01") != 1 {
		t.Errorf("host 1, kept, logged:\n%s", logOf(1))
	}
	if code := p.stop(); code != 0 {
		t.Errorf("exit %d:\n%s", code, p.errs.String())
	}
}
