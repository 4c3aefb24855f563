package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/realtest"
)

// lockedBuffer is a buffer several goroutines write.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// livePmie is a pmie running live in this process (so its goroutines
// and descriptors can be counted), with pmie-notify beside it.
type livePmie struct {
	t         *testing.T
	out, errs *lockedBuffer
	cancel    context.CancelFunc
	done      chan int
	base      string // its HTTP endpoint, if any
}

var endpointRE = regexp.MustCompile(`HTTP endpoint on (http://\S+)`)

// startLive runs pmie with args until the test ends (or stop).
func startLive(t *testing.T, args ...string) *livePmie {
	t.Helper()
	useNotifier(t)
	ctx, cancel := context.WithCancel(context.Background())
	p := &livePmie{t: t, out: &lockedBuffer{}, errs: &lockedBuffer{}, cancel: cancel, done: make(chan int, 1)}
	go func() { p.done <- run(ctx, nil, args, strings.NewReader(""), p.out, p.errs) }()
	t.Cleanup(func() { p.stop() })
	return p
}

// stop ends pmie, returning its exit status.
func (p *livePmie) stop() int {
	p.cancel()
	select {
	case code := <-p.done:
		p.done <- code
		return code
	case <-time.After(30 * time.Second):
		p.t.Fatalf("pmie did not stop:\n%s", p.errs.String())
		return -1
	}
}

// hangBound is how long a live test waits for something that should
// come before it takes it as never coming: long enough for a machine
// loaded many times over (a test that times how long things take is a
// benchmark, not a test).
const hangBound = 2 * time.Minute

// waitFor waits until cond holds, returning how long that took; expect is
// how long that takes on a machine not loaded, said in the test's log
// when exceeded. The test fails if cond does not hold within hangBound
// (or expect, if longer).
func (p *livePmie) waitFor(what string, expect time.Duration, cond func() bool) time.Duration {
	p.t.Helper()
	start := time.Now()
	limit := max(expect, hangBound)
	for !cond() {
		if time.Since(start) > limit {
			p.t.Fatalf("no %s after %v; pmie said:\n%s", what, limit, p.errs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	took := time.Since(start)
	if took > expect {
		p.t.Logf("%s took %v, more than the %v expected (a loaded machine?)", what, took, expect)
	}
	return took
}

// endpoint waits for pmie-notify's HTTP endpoint and returns its URL.
func (p *livePmie) endpoint() string {
	p.t.Helper()
	p.waitFor("HTTP endpoint", 10*time.Second, func() bool { return endpointRE.MatchString(p.errs.String()) })
	p.base = endpointRE.FindStringSubmatch(p.errs.String())[1]
	return p.base
}

// get fetches a path of the endpoint.
func (p *livePmie) get(path string) (int, string) {
	p.t.Helper()
	resp, err := http.Get(p.base + path)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// ruleNames lists the rules /api/v1/rules shows.
func (p *livePmie) ruleNames() []string {
	p.t.Helper()
	_, body := p.get("/api/v1/rules")
	var r struct {
		Data struct {
			Groups []struct{ Rules []struct{ Name string } }
		}
	}
	json.Unmarshal([]byte(body), &r)
	var names []string
	for _, g := range r.Data.Groups {
		for _, rule := range g.Rules {
			names = append(names, rule.Name)
		}
	}
	return names
}

// saveOver writes a file as editors save: a new file renamed over it.
func saveOver(t *testing.T, path, text string) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".swp")
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

const reloadRules = `delta = 0.2 sec;
held = hinv.ncpu > 0 -> print 10 min "held %v";
other = hinv.ncpu > 0;
`

// TestDaemonReload runs pmie as a daemon and edits its files under it:
// a rule file saved over (renamed) applies (in well under 2 s on a
// machine not loaded), with the unchanged rule keeping its holdoff (its
// action does not run again) and no extra evaluation; a broken edit keeps everything running and logs
// the error with file:line:col (and a YAML edit made meanwhile is
// refused too: the transaction is every file); once mended, both apply.
func TestDaemonReload(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for seconds")
	}
	dir := t.TempDir()
	rulesFile := filepath.Join(dir, "rules.pmie")
	os.WriteFile(rulesFile, []byte(reloadRules), 0o644)
	os.WriteFile(filepath.Join(dir, "more.pmie"), []byte("more = hinv.ncpu > 0;\n"), 0o644)
	yaml := filepath.Join(dir, "pmie.yaml")
	os.WriteFile(yaml, []byte("rule_files: [rules.pmie]\nhttp: {listen_address: '127.0.0.1:0'}\nmmv: false\n"), 0o644)
	p := startLive(t, "--yaml-config", yaml, "-L", "-f")
	p.endpoint()
	p.waitFor("rules", 5*time.Second, func() bool { return strings.Join(p.ruleNames(), " ") == "held other" })
	p.waitFor("held's action", 5*time.Second, func() bool { return strings.Contains(p.out.String(), "held ") })

	saveOver(t, rulesFile, reloadRules+"extra = hinv.ncpu > 0 -> print \"extra\";\n")
	took := p.waitFor("the edit applied", 2*time.Second, func() bool {
		return strings.Join(p.ruleNames(), " ") == "held other extra"
	})
	t.Logf("a rule file saved over applied %v after the save", took)
	p.waitFor("extra's action", 2*time.Second, func() bool { return strings.Contains(p.out.String(), "extra") })

	saveOver(t, rulesFile, reloadRules+"broken = hinv.ncpu > > 0;\n")
	p.waitFor("the failure logged", 2*time.Second, func() bool { return strings.Contains(p.errs.String(), "failed; the running") })
	logged := p.errs.String()
	if !strings.Contains(logged, rulesFile+":4:22: error: ") || !strings.Contains(logged, "broken = hinv.ncpu > > 0;\n") {
		t.Errorf("the failure does not say file:line:col and the line:\n%s", logged)
	}
	if names := strings.Join(p.ruleNames(), " "); names != "held other extra" {
		t.Errorf("after a broken edit the rules are %q", names)
	}

	// the YAML file names another rule file: refused while rules.pmie is
	// broken (the transaction is every file), applied once it is mended
	saveOver(t, yaml, "rule_files: [rules.pmie, more.pmie]\nhttp: {listen_address: '127.0.0.1:0'}\nmmv: false\n")
	p.waitFor("the failure logged", 2*time.Second, func() bool {
		return strings.Contains(p.errs.String(), "(changed: "+yaml+") failed; the running")
	})
	saveOver(t, rulesFile, reloadRules+"extra = hinv.ncpu > 0 -> print \"extra\";\n")
	took = p.waitFor("the edits applied", 2*time.Second, func() bool {
		return strings.Join(p.ruleNames(), " ") == "held other extra more"
	})
	t.Logf("the YAML file's edit applied %v after the rule file was mended", took)
	time.Sleep(500 * time.Millisecond)
	if n := strings.Count(p.out.String(), "held "); n != 1 {
		t.Errorf("held's action ran %d times, want once (its 10 min holdoff carried over reloads):\n%s", n, p.out.String())
	}
	if code := p.stop(); code != 0 {
		t.Errorf("exit %d", code)
	}
	for _, want := range []string{"configuration reloaded: 3 rules (2 kept, 1 new, 0 removed)",
		"configuration reloaded: 4 rules (3 kept, 1 new, 0 removed)"} {
		if !strings.Contains(p.errs.String(), want) {
			t.Errorf("no %q logged:\n%s", want, p.errs.String())
		}
	}
}

// openFDs counts this process's open file descriptors.
func openFDs(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(ents)
}

// TestReloadLeaks reloads a daemon 100 times while its rules evaluate
// every 50 ms, half by POST /-/reload and half by edits of a rule file,
// and checks that no goroutine or file descriptor is left behind.
func TestReloadLeaks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for seconds")
	}
	dir := t.TempDir()
	rulesFile := filepath.Join(dir, "rules.pmie")
	var text strings.Builder
	text.WriteString("delta = 0.05 sec;\n")
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&text, "r%d = hinv.ncpu > %d -> print 1 hour \"r%d\";\n", i, i%3, i)
	}
	os.WriteFile(rulesFile, []byte(text.String()), 0o644)
	yaml := filepath.Join(dir, "pmie.yaml")
	os.WriteFile(yaml, []byte("rule_files: [rules.pmie]\nhttp: {listen_address: '127.0.0.1:0'}\nmmv: false\n"), 0o644)
	p := startLive(t, "--yaml-config", yaml, "-L", "-f")
	p.endpoint()
	reload := func() {
		resp, err := http.Post(p.base+"/-/reload", "", nil)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("reload: %v %v", resp, err)
		}
		resp.Body.Close()
	}
	reloaded := func() int { return strings.Count(p.errs.String(), "configuration reloaded") }
	reload() // warm up: whatever is started once is started
	time.Sleep(200 * time.Millisecond)
	runtime.GC()
	goroutines, fds := runtime.NumGoroutine(), openFDs(t)
	for i := 1; i < 100; i++ {
		if i%2 == 0 {
			reload()
			continue
		}
		n := reloaded()
		os.WriteFile(rulesFile, []byte(text.String()+fmt.Sprintf("edit = hinv.ncpu > %d;\n", i)), 0o644)
		p.waitFor("the edit applied", 5*time.Second, func() bool { return reloaded() > n })
	}
	if n := reloaded(); n != 100 {
		t.Errorf("%d reloads logged, want 100", n)
	}
	deadline := time.Now().Add(hangBound)
	for time.Now().Before(deadline) && (runtime.NumGoroutine() > goroutines+2 || openFDs(t) > fds+2) {
		time.Sleep(50 * time.Millisecond)
	}
	g, f := runtime.NumGoroutine(), openFDs(t)
	t.Logf("after 100 reloads under load: goroutines %d before, %d after; file descriptors %d before, %d after", goroutines, g, fds, f)
	if g > goroutines+2 {
		t.Errorf("goroutines: %d before, %d after", goroutines, g)
	}
	if f > fds+2 {
		t.Errorf("file descriptors: %d before, %d after", fds, f)
	}
	if code := p.stop(); code != 0 {
		t.Errorf("exit %d:\n%s", code, p.errs.String())
	}
}

// TestMMVMatchesMetrics checks that pmie's MMV file, as real pmcd's mmv
// PMDA serves it to real pminfo, shows the same per-rule counts as
// /metrics.
func TestMMVMatchesMetrics(t *testing.T) {
	realtest.Require(t, realtest.Pmcd)
	if testing.Short() {
		t.Skip("runs for seconds")
	}
	dir := t.TempDir()
	name := fmt.Sprintf("pmietest%d", os.Getpid())
	os.WriteFile(filepath.Join(dir, "rules.pmie"), []byte("delta = 1 hour;\n"+
		"ncpu = hinv.ncpu > 0 -> print \"ncpu\";\nnever = hinv.ncpu < 0 -> print \"never\";\nload = kernel.all.load;\n"), 0o644)
	yaml := filepath.Join(dir, "pmie.yaml")
	os.WriteFile(yaml, []byte("rule_files: [rules.pmie]\nhttp: {listen_address: '127.0.0.1:0'}\nmmv: "+name+"\n"), 0o644)
	p := startLive(t, "--yaml-config", yaml, "-L", "-f")
	p.endpoint()
	p.waitFor("ready", 10*time.Second, func() bool { code, _ := p.get("/-/ready"); return code == 200 })
	metric := regexp.MustCompile(`(?m)^pmie_rule_evaluations_total\{rule="(\w+)"\} (\d+)$`)
	inst := regexp.MustCompile(`(?m)^\s+inst \[\d+ or "(\w+)"\] value (\d+)$`)
	// rule=count, in the order of the rules' names (/metrics sorts its
	// samples so, the MMV file has the rules in their order)
	counts := func(re *regexp.Regexp, text string) string {
		var l []string
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			l = append(l, m[1]+"="+m[2])
		}
		slices.Sort(l)
		return strings.Join(l, " ")
	}
	var fromMetrics, fromPminfo string
	p.waitFor("the MMV file", 10*time.Second, func() bool {
		_, body := p.get("/metrics")
		fromMetrics = counts(metric, body)
		out, _ := exec.Command("pminfo", "-f", "mmv."+name+".rule.evaluations").CombinedOutput()
		fromPminfo = counts(inst, string(out))
		return fromMetrics != "" && fromMetrics == fromPminfo
	})
	t.Logf("/metrics and pminfo -f mmv.%s.rule.evaluations agree: %s", name, fromMetrics)
	checkEvalTimes(t, p, name)
	out, _ := exec.Command("pminfo", "-f", "mmv."+name+".rule.true", "mmv."+name+".reloads.success").CombinedOutput()
	if !strings.Contains(string(out), `inst [0 or "ncpu"] value 1`) || !strings.Contains(string(out), `inst [1 or "never"] value 0`) {
		t.Errorf("pminfo -f mmv.%s.rule.true:\n%s", name, out)
	}
	p.stop()
	if _, err := os.Stat(filepath.Join(pcpTmpDirForTest(), "mmv", name)); err == nil {
		t.Errorf("the MMV file is left behind")
	}
}

// checkEvalTimes checks that the rules' evaluation times (one
// evaluation each: their interval is an hour) are measured, and the same
// in the rules API, /metrics and real pminfo -f mmv.NAME.rule.eval_time.
func checkEvalTimes(t *testing.T, p *livePmie, name string) {
	t.Helper()
	_, body := p.get("/api/v1/rules")
	var api struct {
		Data struct {
			Groups []struct {
				EvaluationTime float64
				Rules          []struct {
					Name           string
					EvaluationTime float64
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(body), &api); err != nil || len(api.Data.Groups) != 1 {
		t.Fatalf("%v: %s", err, body)
	}
	fromAPI := map[string]float64{}
	sum := 0.0
	for _, r := range api.Data.Groups[0].Rules {
		fromAPI[r.Name] = r.EvaluationTime
		sum += r.EvaluationTime
		if r.EvaluationTime <= 0 || r.EvaluationTime > 1 {
			t.Errorf("rule %s: evaluationTime %v", r.Name, r.EvaluationTime)
		}
	}
	if g := api.Data.Groups[0].EvaluationTime; math.Abs(g-sum) > 1e-9 {
		t.Errorf("group evaluationTime %v, its rules' %v", g, sum)
	}
	_, metrics := p.get("/metrics")
	out, _ := exec.Command("pminfo", "-f", "mmv."+name+".rule.eval_time").CombinedOutput()
	inst := regexp.MustCompile(`(?m)^\s+inst \[\d+ or "(\w+)"\] value (\S+)$`)
	found := 0
	for _, m := range inst.FindAllStringSubmatch(string(out), -1) {
		v, _ := strconv.ParseFloat(m[2], 64)
		line := regexp.MustCompile(`(?m)^pmie_rule_evaluation_seconds_total\{rule="` + m[1] + `"\} (\S+)$`).FindStringSubmatch(metrics)
		if line == nil {
			t.Errorf("no pmie_rule_evaluation_seconds_total for %s", m[1])
			continue
		}
		mv, _ := strconv.ParseFloat(line[1], 64)
		if math.Abs(v-fromAPI[m[1]]) > 1e-6*fromAPI[m[1]] || math.Abs(mv-fromAPI[m[1]]) > 1e-6*fromAPI[m[1]] {
			t.Errorf("rule %s: pminfo %v, /metrics %v, API %v", m[1], v, mv, fromAPI[m[1]])
		}
		found++
	}
	if found != len(fromAPI) {
		t.Errorf("pminfo -f mmv.%s.rule.eval_time has %d rules, the API %d:\n%s", name, found, len(fromAPI), out)
	}
	t.Logf("evaluation times (s), API = /metrics = pminfo: %v", fromAPI)
}

// pcpTmpDirForTest is $PCP_TMP_DIR as pcp.conf says.
func pcpTmpDirForTest() string {
	out, err := exec.Command("sh", "-c", ". /etc/pcp.conf && echo $PCP_TMP_DIR").Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		return "/var/lib/pcp/tmp"
	}
	return strings.TrimSpace(string(out))
}

// BenchmarkLiveFiredActions runs pmie live for 3 s with 200 rules that
// all fire every 20 ms: 10,000 actions a second, each routed by
// pmie-notify to two receivers that discard what they get, an
// Alertmanager stand-in (whose sends coalesce) and a webhook (one POST
// per alert, at the speed the webhook sender manages, dropping the
// oldest beyond its queue). It reports the actions fired per second
// against the 10,000 the schedule asks for (a delay of evaluation would
// show as fewer), and the POSTs each receiver got.
func BenchmarkLiveFiredActions(b *testing.B) {
	useNotifier(b)
	var mu sync.Mutex
	hook, am := 0, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		if r.URL.Path == "/hook" {
			hook++
		} else {
			am++
		}
		mu.Unlock()
	}))
	defer srv.Close()
	dir := b.TempDir()
	var rules strings.Builder
	rules.WriteString("delta = 0.02 sec;\n")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&rules, "r%d = hinv.ncpu > 0 -> print \"r%d\";\n", i, i)
	}
	os.WriteFile(filepath.Join(dir, "rules.pmie"), []byte(rules.String()), 0o644)
	yaml := filepath.Join(dir, "pmie.yaml")
	os.WriteFile(yaml, []byte("mmv: false\nshutdown_timeout: 1s\nreceivers:\n"+
		"  - {name: hook, type: webhook, url: '"+srv.URL+"/hook', queue: 100000}\n"+
		"  - {name: am, type: alertmanager, url: '"+srv.URL+"'}\n"+
		"routes:\n  - {receivers: [hook, am]}\n"), 0o644)
	const seconds = 3
	for b.Loop() {
		var out, errs lockedBuffer
		start := time.Now()
		args := []string{"--yaml-config", yaml, "-L", "-f", "-e", "-T", fmt.Sprintf("%dsec", seconds), "-c", filepath.Join(dir, "rules.pmie")}
		if code := run(context.Background(), nil, args, strings.NewReader(""), &out, &errs); code != 0 {
			b.Fatalf("exit %d: %s", code, errs.String())
		}
		took := time.Since(start)
		actions := strings.Count(out.String(), "\n")
		b.ReportMetric(float64(actions)/seconds, "actions/s")
		b.ReportMetric(10000, "scheduled/s")
		b.ReportMetric(took.Seconds(), "run-s")
		mu.Lock()
		b.ReportMetric(float64(hook), "webhook-posts")
		b.ReportMetric(float64(am), "am-posts")
		mu.Unlock()
	}
}

// TestDerivedReload checks that the daemon's derived metric files reload
// with the rules: a redefinition gives the rules that read it new values
// (and new state), a broken one is refused with file:line:col.
func TestDerivedReload(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for seconds")
	}
	dir := t.TempDir()
	derived := filepath.Join(dir, "derived.conf")
	os.WriteFile(derived, []byte("my.ncpu = hinv.ncpu * 2\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "rules.pmie"), []byte("delta = 0.2 sec;\ntwice = my.ncpu;\nplain = hinv.ncpu;\n"), 0o644)
	yaml := filepath.Join(dir, "pmie.yaml")
	os.WriteFile(yaml, []byte("rule_files: [rules.pmie]\nderived_files: [derived.conf]\nmmv: false\n"), 0o644)
	p := startLive(t, "--yaml-config", yaml, "-L", "-f", "-v")
	ncpu := regexp.MustCompile(`(?m)^plain: (\d+)$`)
	p.waitFor("values", 5*time.Second, func() bool { return ncpu.MatchString(p.out.String()) })
	n := 0
	fmt.Sscan(ncpu.FindStringSubmatch(p.out.String())[1], &n)
	if !strings.Contains(p.out.String(), fmt.Sprintf("twice: %d\n", 2*n)) {
		t.Fatalf("no twice: %d in\n%s", 2*n, p.out.String())
	}
	saveOver(t, derived, "my.ncpu = hinv.ncpu * 3\n")
	p.waitFor("the new definition", 3*time.Second, func() bool {
		return strings.Contains(p.out.String(), fmt.Sprintf("twice: %d\n", 3*n))
	})
	saveOver(t, derived, "my.ncpu = hinv.ncpu +* 3\n")
	p.waitFor("the failure", 3*time.Second, func() bool { return strings.Contains(p.errs.String(), "failed; the running") })
	if !strings.Contains(p.errs.String(), derived+":1:22: error: ") {
		t.Errorf("the failure does not say file:line:col:\n%s", p.errs.String())
	}
	if !strings.Contains(p.errs.String(), "configuration reloaded: 2 rules (1 kept, 1 new, 1 removed)") {
		t.Errorf("the redefinition did not renew the rule reading it:\n%s", p.errs.String())
	}
}
