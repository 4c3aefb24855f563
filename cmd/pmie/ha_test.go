package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/pmie/daemon/fleet"
	"github.com/gopcp/pmie/internal/pmcdtest"
	"github.com/gopcp/pmie/internal/realtest"
	"github.com/gopcp/pmie/pmapi"
)

// amCluster is real Alertmanagers started as one cluster on loopback,
// each with its own storage, notifying one webhook of the test's.
type amCluster struct {
	t     *testing.T
	nodes []*realAM
	pages *pageLog
}

// pageLog counts the notifications of firing alerts the webhook gets,
// by the alert's alertname and instance.
type pageLog struct {
	mu     sync.Mutex
	pages  map[string]int
	labels map[string][]string // each page's labels, for messages
}

func (l *pageLog) snapshot() map[string]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make(map[string]int, len(l.pages))
	for k, v := range l.pages {
		out[k] = v
	}
	return out
}

// startAMCluster starts n Alertmanagers as a cluster: every alert is a
// group of its own, notified at once and not repeated for an hour.
func startAMCluster(t *testing.T, n int) *amCluster {
	t.Helper()
	realtest.Require(t, realtest.Alertmanager)
	pages := &pageLog{pages: map[string]int{}, labels: map[string][]string{}}
	srv := amHook(t, func(note amNote) {
		pages.mu.Lock()
		for _, a := range note.Alerts {
			if a.Status == "firing" {
				k := a.Labels["alertname"] + " " + a.Labels["instance"]
				pages.pages[k]++
				pages.labels[k] = append(pages.labels[k], fmt.Sprintf("%v at %v (starts %v)", a.Labels, time.Now().Format(time.StampMilli), a.StartsAt))
			}
		}
		pages.mu.Unlock()
	})
	dir := t.TempDir()
	cfg := writeAMConfig(t, dir, srv.URL, "['...']", false)
	c := &amCluster{t: t, pages: pages}
	gossip := make([]int, n)
	for i := range gossip {
		gossip[i] = freePort(t)
	}
	for i := range n {
		port := freePort(t)
		am := &realAM{t: t, storageDir: filepath.Join(dir, fmt.Sprint("data", i)), url: fmt.Sprintf("http://127.0.0.1:%d", port)}
		am.args = []string{"--config.file=" + cfg, "--storage.path=" + am.storageDir,
			fmt.Sprintf("--web.listen-address=127.0.0.1:%d", port),
			fmt.Sprintf("--cluster.listen-address=127.0.0.1:%d", gossip[i]),
			"--cluster.peer-timeout=5s", "--cluster.settle-timeout=5s", "--cluster.probe-interval=300ms",
			"--cluster.pushpull-interval=2s", // gossip can drop state; the full exchange repairs it well within a peer timeout
			"--cluster.reconnect-interval=1s"}
		for j := range n {
			if j != i {
				am.args = append(am.args, fmt.Sprintf("--cluster.peer=127.0.0.1:%d", gossip[j]))
			}
		}
		c.nodes = append(c.nodes, am)
	}
	var wg sync.WaitGroup
	for _, am := range c.nodes {
		wg.Add(1)
		go func() { defer wg.Done(); am.start() }()
		t.Cleanup(am.stop)
	}
	wg.Wait()
	c.waitPeers(n)
	return c
}

// waitPeers waits until every node running sees n peers.
func (c *amCluster) waitPeers(n int) {
	c.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for _, am := range c.nodes {
		if am.cmd == nil {
			continue
		}
		for {
			var st struct {
				Cluster struct{ Peers []any } `json:"cluster"`
			}
			if resp, err := http.Get(am.url + "/api/v2/status"); err == nil {
				json.NewDecoder(resp.Body).Decode(&st)
				resp.Body.Close()
			}
			if len(st.Cluster.Peers) == n {
				break
			}
			if time.Now().After(deadline) {
				c.t.Fatalf("Alertmanager %s sees %d peers, not %d", am.url, len(st.Cluster.Peers), n)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// urls are the nodes' URLs.
func (c *amCluster) urls() []string {
	var out []string
	for _, am := range c.nodes {
		out = append(out, am.url)
	}
	return out
}

// replica is one pmie process of a shard, run from this test binary.
type replica struct {
	t      *testing.T
	name   string
	args   []string
	env    []string
	cmd    *exec.Cmd
	listen string
	log    string
	done   chan struct{}
}

// startReplica runs pmie on the fleet configuration as shard (I/N), with
// its own HTTP endpoint and state file.
func startReplica(t *testing.T, dir, name, yaml, shard string) *replica {
	r := &replica{t: t, name: name, listen: fmt.Sprintf("127.0.0.1:%d", freePort(t)), log: filepath.Join(dir, name+".log"),
		args: []string{"--yaml-config", yaml, "--shard", shard, "-q"}}
	r.env = append(ourEnv(), "PMIE_HTTP_LISTEN_ADDRESS="+r.listen, "PMIE_STATE_FILE="+filepath.Join(dir, name+".state"),
		"PMIE_MMV=false", "PCP_TMP_DIR="+dir)
	r.start()
	t.Cleanup(r.kill)
	return r
}

func (r *replica) start() {
	r.t.Helper()
	out, err := os.OpenFile(r.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		r.t.Fatal(err)
	}
	r.cmd = exec.Command(os.Args[0], r.args...)
	r.cmd.Env, r.cmd.Stdout, r.cmd.Stderr = r.env, out, out
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // with its pmie-notify
	if err := r.cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	out.Close()
	r.done = make(chan struct{})
	go func(cmd *exec.Cmd, done chan struct{}) { cmd.Wait(); close(done) }(r.cmd, r.done)
}

// kill kills the replica and its pmie-notify at once, as a crash would.
// A killed pmie leaves its statistics file behind, as pmie does: the
// replicas keep theirs ($PCP_TMP_DIR) in the test's directory.
func (r *replica) kill() {
	if r.cmd == nil {
		return
	}
	syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
	<-r.done
	r.cmd = nil
}

// hostsFetched lists the hosts the replica has fetched from, as its
// /metrics says.
func (r *replica) hostsFetched() []string {
	resp, err := http.Get("http://" + r.listen + "/metrics")
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	var out []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, `pmie_host_fetches_total{host="`)
		if !ok {
			continue
		}
		host, value, _ := strings.Cut(rest, `"} `)
		if value != "0" {
			out = append(out, host)
		}
	}
	sort.Strings(out)
	return out
}

// waitFor waits until cond holds, failing the test (with the replica's
// log) if it does not within hangBound.
func (r *replica) waitFor(what string, cond func() bool) {
	r.t.Helper()
	for end := time.Now().Add(hangBound); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			b, _ := os.ReadFile(r.log)
			r.t.Fatalf("%s: no %s after %v:\n%s", r.name, what, hangBound, b)
		}
	}
}

// evaluations is how many times the replica has evaluated rule, as its
// /metrics says (0 if it does not answer).
func (r *replica) evaluations(rule string) int {
	resp, err := http.Get("http://" + r.listen + "/metrics")
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	n := 0
	if m := regexp.MustCompile(`(?m)^pmie_rule_evaluations_total\{rule="` + rule + `"\} (\d+)$`).FindSubmatch(b); m != nil {
		n, _ = strconv.Atoi(string(m[1]))
	}
	return n
}

// TestHAFleet runs 2 shards x 2 replicas of pmie over 200 stand-in hosts
// against a cluster of three real Alertmanagers: a rule fires on a known
// subset of the hosts, and every alert reaches the receiver exactly
// once; every host is evaluated by exactly one shard; killing an
// Alertmanager, then a replica, keeps exactly-once delivery of new
// alerts; restarting the replica pages nobody again.
func TestHAFleet(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for about a minute")
	}
	realtest.Require(t, realtest.Alertmanager)
	t.Parallel() // mostly waits, beside the other tests that mostly wait
	useNotifier(t)
	const n = 200
	servers := make([]*pmcdtest.Server, n)
	specs := make([]string, n)
	for i := range servers {
		servers[i] = pmcdtest.Start(t, pmcdtest.Sample(fmt.Sprintf("h%03d", i)))
		specs[i] = servers[i].Spec()
	}
	setCPUs := func(i int, cpus uint32) {
		servers[i].SetValues("hinv.ncpu", []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.U32(cpus)}})
	}
	firing := map[string]bool{}
	fire := func(i int) {
		setCPUs(i, 16)
		firing[fmt.Sprintf("h%03d", i)] = true
	}
	for i := range n {
		setCPUs(i, 2)
	}
	for i := 0; i < n; i += 5 {
		fire(i) // the known subset: every fifth host
	}
	c := startAMCluster(t, 3)
	dir := t.TempDir()
	writeFile(t, dir, "rules.pmie", "delta = 1 sec;\nmany_cpus = hinv.ncpu > 8 -> print \"many cpus on %h: %v\";\n")
	writeFile(t, dir, "hosts", strings.Join(specs, "\n")+"\n")
	yaml := writeFile(t, dir, "fleet.yaml", `rule_files: [rules.pmie]
fleet:
  hosts_files: [hosts]
  connections: 16
labels: {team: ops}
receivers:
  - name: am
    type: alertmanager
    urls: [`+strings.Join(c.urls(), ", ")+`]
    resend_interval: 2s
    resolve_timeout: 1m
    retries: 0
default_receiver: am
`)
	var rs [2][2]*replica
	for s := range 2 {
		for k := range 2 {
			rs[s][k] = startReplica(t, dir, fmt.Sprintf("shard%d-%c", s+1, 'a'+k), yaml, fmt.Sprintf("%d/2", s+1))
		}
	}
	check := func(phase string) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			pages := c.pages.snapshot()
			missing := 0
			for h := range firing {
				if pages["many_cpus "+h] == 0 {
					missing++
				}
			}
			if missing == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d of %d alerts never reached the receiver", phase, missing, len(firing))
			}
			time.Sleep(200 * time.Millisecond)
		}
		time.Sleep(12 * time.Second) // time for any duplicate to arrive (2 peer timeouts)
		pages := c.pages.snapshot()
		for k, count := range pages {
			host := strings.TrimPrefix(k, "many_cpus ")
			if !firing[host] || count != 1 {
				c.pages.mu.Lock()
				t.Errorf("%s: %q paged %d times (firing: %v): %q", phase, k, count, firing[host], c.pages.labels[k])
				c.pages.mu.Unlock()
			}
		}
		if len(pages) != len(firing) {
			t.Errorf("%s: %d alerts paged, %d firing", phase, len(pages), len(firing))
		}
		t.Logf("%s: %d alerts, each paged once", phase, len(pages))
	}
	check("2 shards x 2 replicas")

	// every host evaluated by exactly one shard (both of its replicas)
	byShard := [2]map[string]bool{{}, {}}
	for s := range 2 {
		for k := range 2 {
			for _, h := range rs[s][k].hostsFetched() {
				byShard[s][h] = true
			}
		}
	}
	for i, spec := range specs {
		in1, in2 := byShard[0][spec], byShard[1][spec]
		if in1 == in2 || (in1 && fleet.Owner(spec, 2) != 1) || (in2 && fleet.Owner(spec, 2) != 2) {
			t.Errorf("host %d (%s) fetched by shard 1: %v, shard 2: %v; its owner is %d", i, spec, in1, in2, fleet.Owner(spec, 2))
		}
	}
	t.Logf("shard 1 evaluates %d hosts, shard 2 %d", len(byShard[0]), len(byShard[1]))

	// one Alertmanager gone: new alerts still reach the receiver once
	c.nodes[0].stop()
	for i := 1; i < n; i += 20 {
		fire(i)
	}
	check("an Alertmanager killed")

	// one replica of shard 1 gone: its shard's new alerts still flow
	rs[0][0].kill()
	added := 0
	for i := 2; i < n && added < 10; i += 5 {
		if fleet.Owner(specs[i], 2) == 1 {
			fire(i)
			added++
		}
	}
	check("a replica of shard 1 killed")

	// the replica back: nobody is paged again
	rs[0][0].start()
	deadline := time.Now().Add(30 * time.Second)
	for len(rs[0][0].hostsFetched()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the restarted replica does not evaluate")
		}
		time.Sleep(200 * time.Millisecond)
	}
	check("the replica restarted")
}

// count is how many bodies were POSTed to path.
func (s *alertServer) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bodies[path])
}

// A pmie killed and started again does not page again for what it paged
// before, with a state file: its actions stay held off and its alerts
// are known to be sent. Without one, it pages again (which is why the
// state file is there).
func TestRestartPagesNobody(t *testing.T) {
	if testing.Short() {
		t.Skip("starts pmie four times")
	}
	t.Parallel() // mostly waits, beside the other tests that mostly wait
	useNotifier(t)
	host := pmcdtest.Start(t, pmcdtest.Sample("hot"))
	host.SetValues("hinv.ncpu", []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.U32(16)}})
	hook, srv := newAlertServer(t)
	for _, keep := range []bool{true, false} {
		dir := t.TempDir()
		writeFile(t, dir, "rules.pmie", "delta = 500 msec;\nhot = hinv.ncpu > 8 -> print 10 min \"hot %h\";\n")
		state := ""
		if keep {
			state = "state_file: pmie.state\n"
		}
		path := "/" + fmt.Sprint(keep)
		yaml := writeFile(t, dir, "pmie.yaml", "rule_files: [rules.pmie]\nsources: {host: '"+host.Spec()+"'}\n"+state+
			"receivers: [{name: hook, type: webhook, url: '"+srv.URL+path+"'}]\ndefault_receiver: hook\n")
		r := &replica{t: t, name: "single", log: filepath.Join(dir, "pmie.log"), args: []string{"--yaml-config", yaml},
			listen: fmt.Sprintf("127.0.0.1:%d", freePort(t))}
		r.env = append(ourEnv(), "PMIE_MMV=false", "PMIE_HTTP_LISTEN_ADDRESS="+r.listen, "PCP_TMP_DIR="+dir)
		r.start()
		t.Cleanup(r.kill)
		r.waitFor("the alert", func() bool { return hook.count(path) > 0 })
		if keep { // the state file written, with the action's time and the alert
			r.waitFor("the state file", func() bool {
				var s savedState
				b, err := os.ReadFile(filepath.Join(dir, "pmie.state"))
				return err == nil && json.Unmarshal(b, &s) == nil && len(s.Actions) > 0 && len(s.Firing) > 0
			})
		}
		r.kill()
		r.start()
		want := 1
		if !keep {
			want = 2
			r.waitFor("the alert again", func() bool { return hook.count(path) == 2 })
		}
		// several evaluations, the rule still true
		r.waitFor("4 evaluations", func() bool { return r.evaluations("hot") >= 4 })
		r.kill()
		if n := hook.count(path); n != want {
			b, _ := os.ReadFile(r.log)
			t.Errorf("state file %v: %d alerts, want %d\n%s", keep, n, want, b)
		}
	}
}
