package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFleet(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"base.pmie", "db.pmie"} {
		os.WriteFile(filepath.Join(dir, f), []byte("x = 1;\n"), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "web.hosts"), []byte("# web\nweb1\nweb2:44322\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "control"), []byte("$version=1.1\nfarm1 n n "+dir+"/farm1.log -c "+dir+"/db.pmie -t 30\n"), 0o644)
	yaml := `rule_files: [base.pmie]
sources: {interval: 20 sec}
fleet:
  hosts: [a, b]
  hosts_files: [web.hosts]
  log_file: logs/%h.log
  classes:
    - name: db
      hosts: [db1, a]
      rule_files: [db.pmie]
      interval: 1 min
  control: control
  shard: 2/3
  connections: 10
  fetches: 20
  backoff: {min: 1s, max: 1m}
state_file: pmie.state
`
	cfg, err := Parse(filepath.Join(dir, "fleet.yaml"), []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	f := cfg.Fleet
	var got []string
	for _, m := range f.Members {
		got = append(got, strings.ReplaceAll(m.Class+"/"+m.Host+" "+strings.Join(m.RuleFiles, ",")+" "+m.Interval+" "+m.Log, dir, "D"))
	}
	want := []string{
		"/a D/base.pmie 20 sec D/logs/a.log",
		"/b D/base.pmie 20 sec D/logs/b.log",
		"/web1 D/base.pmie 20 sec D/logs/web1.log",
		"/web2:44322 D/base.pmie 20 sec D/logs/web2:44322.log",
		"db/db1 D/db.pmie 1 min ",
		"db/a D/db.pmie 1 min ",
		"/farm1 D/db.pmie 30 D/farm1.log",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("members:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if f.Shard != "2/3" || f.Connections != 10 || f.Fetches != 20 || f.BackoffMin.Seconds() != 1 || f.BackoffMax.Minutes() != 1 {
		t.Errorf("fleet %+v", f)
	}
	if cfg.StateFile != filepath.Join(dir, "pmie.state") {
		t.Errorf("state file %q", cfg.StateFile)
	}
	files := strings.ReplaceAll(strings.Join(cfg.Files(), " "), dir, "D")
	if files != "D/fleet.yaml D/base.pmie D/web.hosts D/control D/db.pmie" {
		t.Errorf("files watched: %s", files)
	}
	t.Setenv("PMIE_FLEET_SHARD", "1/3")
	if cfg, err = Parse(filepath.Join(dir, "fleet.yaml"), []byte(yaml)); err != nil || cfg.Fleet.Shard != "1/3" {
		t.Errorf("PMIE_FLEET_SHARD: %v", err)
	}
}

func TestFleetErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bad.hosts"), []byte("a b\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "control"), []byte("$version=1.1\nx q n /l -c r\n"), 0o644)
	for _, c := range []struct{ yaml, want string }{
		{"fleet: {hosts: [a]}\n", "F:1:16: fleet.hosts: the hosts of fleet.hosts and fleet.hosts_files are given the rule_files, and there are none"},
		{"fleet: {shard: 1/2}\n", "F:1:8: fleet: names no hosts: give hosts, hosts_files, classes or control"},
		{"fleet: {hosts_files: [bad.hosts, none]}\nrule_files: [bad.hosts]\n",
			"D/bad.hosts:1: error: one host a line, not \"a b\"\nF:1:34: fleet.hosts_files[1]: open D/none: no such file or directory"},
		{"fleet: {control: control, shard: 3/2, fetches: 0}\n",
			"D/control:2: error: primary field in control file record must be y or n, not \"q\"\n" +
				"F:1:34: fleet.shard: shard 3/2: I/N needs 1 <= I <= N <= 65536\nF:1:48: fleet.fetches: must be a whole number from 1 to 100000, not 0"},
		{"rule_files: [bad.hosts]\nsources: {host: h}\nfleet: {hosts: [a, a], classes: [{name: c}], backoff: {min: 1m, max: 1s}}\n",
			"F:3:20: host a is named again (first in F:3:17)\n" +
				"F:3:34: fleet.classes[0]: class \"c\" has no rule_files\nF:3:34: fleet.classes[0]: class \"c\" has no hosts\n" +
				"F:3:70: fleet.backoff.max: must be at least min (1m0s), not 1s\nF:2:10: sources: a fleet names its hosts: give sources.host or local, or fleet, not both"},
	} {
		_, err := Parse(filepath.Join(dir, "F"), []byte(c.yaml))
		got := ""
		if err != nil {
			got = strings.ReplaceAll(strings.ReplaceAll(err.Error(), filepath.Join(dir, "F"), "F"), dir, "D")
		}
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.yaml, got, c.want)
		}
	}
}
