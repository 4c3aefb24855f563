package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/daemon/fleet"
	"github.com/gopcp/pmie/internal/pmcdtest"
)

// TestExamplesCheck checks the example rule files the README runs: pmie -C
// accepts them, on the embedded collector, with the alerting file too
// (which pmie-notify checks).
func TestExamplesCheck(t *testing.T) {
	useNotifier(t)
	for _, args := range [][]string{
		{"-C", "-L", "-c", "examples/basic.pmie"},
		{"-C", "-L", "--route-alerts", "examples/alerting.yaml", "-c", "examples/alerting.pmie"},
	} {
		if code, out, errs := runPmie(t, args...); code != 0 || out != "" || errs != "" {
			t.Errorf("pmie %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errs)
		}
	}
}

// TestAlertingExample runs the README's alerting example for a moment:
// the heartbeat rule prints its line and examples/page-oncall, the
// default receiver, pages (on its standard error, which pmie logs as
// information: the program succeeded).
func TestAlertingExample(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for a second")
	}
	useNotifier(t)
	code, out, errs := runPmie(t, "-L", "--route-alerts", "examples/alerting.yaml",
		"-c", "examples/alerting.pmie", "-T", "1sec")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !regexp.MustCompile(`(?m)^.*: heartbeat: \d+ processes$`).MatchString(out) {
		t.Errorf("no heartbeat printed:\n%s", out)
	}
	// the program succeeded: what it said is logged as information
	page := regexp.MustCompile(`(?m)^\[.*\] pmie\(\d+\) Info: alerting: receiver pager: rule heartbeat: examples/page-oncall said: paging ops: heartbeat: heartbeat: \d+ processes$`)
	if !page.MatchString(errs) {
		t.Errorf("no page logged:\n%s", errs)
	}
}

// TestFleetExample runs the README's fleet example: pmie -C accepts
// examples/fleet/fleet.yaml and ha.yaml, and shard 1 of 2 of 50 stand-in
// hosts (as internal/pmcdtest/farm -hot 5 serves them) logs the busy
// hosts it owns, and only those, in their own logs. (Ten busy hosts, on
// ports of the moment: shard 1 owns none of them once in 1024 runs; then
// shard 2 is run.)
func TestFleetExample(t *testing.T) {
	useNotifier(t)
	dir := t.TempDir()
	for _, f := range []string{"fleet.yaml", "ha.yaml", "fleet.pmie"} {
		b, err := os.ReadFile(filepath.Join("../../examples/fleet", f))
		if err != nil {
			t.Fatal(err)
		}
		// the files the README makes in /tmp, made here
		text := strings.NewReplacer("/tmp/fleet-hosts", dir+"/hosts", "/etc/pcp/pmie/fleet-hosts", dir+"/hosts", "/tmp/fleet-logs", dir+"/logs").Replace(string(b))
		writeFile(t, dir, f, text)
	}
	os.Mkdir(filepath.Join(dir, "logs"), 0o755)
	rec, err := pmcdtest.LoadRecorded("../../testdata/standin/pmieconf.json")
	if err != nil {
		t.Fatal(err)
	}
	var specs []string
	busy := map[string]string{}
	for i := range 50 {
		s := pmcdtest.Start(t, rec.Namespace(fmt.Sprintf("standin%04d", i)))
		scale := 1.0
		if i%5 == 0 {
			scale = 10
		}
		s.SetDynamic(pmcdtest.Varying(time.Now(), 10*scale, scale))
		specs = append(specs, s.Spec())
		if scale > 1 {
			busy[s.Spec()] = fmt.Sprintf("standin%04d is busy: load 15", i)
		}
	}
	writeFile(t, dir, "hosts", strings.Join(specs, "\n")+"\n")
	t.Setenv("PMIE_HTTP_LISTEN_ADDRESS", "127.0.0.1:0")
	for _, yaml := range []string{"fleet.yaml", "ha.yaml"} {
		if code, out, errs := runPmie(t, "--yaml-config", filepath.Join(dir, yaml), "-C"); code != 0 || out != "" || errs != "" {
			t.Errorf("pmie --yaml-config %s -C: exit %d\n%s%s", yaml, code, out, errs)
		}
	}
	shard := 1
	if !slices.ContainsFunc(slices.Collect(maps.Keys(busy)), func(spec string) bool { return fleet.Owner(spec, 2) == 1 }) {
		shard = 2
	}
	p := startLive(t, "--yaml-config", filepath.Join(dir, "fleet.yaml"), "--shard", fmt.Sprintf("%d/2", shard))
	logOf := func(spec string) string {
		b, _ := os.ReadFile(filepath.Join(dir, "logs", spec+".log"))
		return string(b)
	}
	owned := 0
	p.waitFor("the busy hosts of the shard logged", 20*time.Second, func() bool {
		owned = 0
		for spec, line := range busy {
			if fleet.Owner(spec, 2) == shard {
				owned++
				if !strings.Contains(logOf(spec), line) {
					return false
				}
			}
		}
		return true
	})
	p.stop()
	for _, spec := range specs {
		if l := logOf(spec); l != "" && (busy[spec] == "" || fleet.Owner(spec, 2) != shard) {
			t.Errorf("%s (shard %d) logged:\n%s", spec, fleet.Owner(spec, 2), l)
		}
	}
	if owned == 0 {
		t.Errorf("shard %d has no busy host: the example shows nothing", shard)
	}
}
