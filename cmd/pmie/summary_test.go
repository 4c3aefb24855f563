package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/realtest"
)

// summaryRoot is the namespace of the test's pmcd, and of its summary
// PMDA's pmie (-x looks the expressions' names up in it, as
// $PMNS_DEFAULT): PCP's summary metrics and three of the test's, whose
// values do not change.
const summaryRoot = `root {
	summary
}
summary {
	cpu
	disk
	netif
	test
}
summary.cpu {
	util	27:0:1
	busy	27:0:2
}
summary.disk {
	iops	27:0:3
	busy	27:0:4
}
summary.netif {
	packets	27:0:6
	busy	27:0:7
}
summary.test {
	ncpu	27:0:10
	up	27:0:11
	rate	27:0:12
}
`

// summaryTests are expressions added to PCP's expr.pmie, with values that
// hold still: a number, a truth (sent as its byte), units.
const summaryTests = `
summary.test.ncpu = hinv.ncpu;
summary.test.up = hinv.ncpu > 0;
summary.test.rate = hinv.ncpu * 2 Kbyte/sec;
`

// TestSummaryPMDA runs PCP's summary PMDA under a pmcd of the test's own
// (its own port, configuration, namespace, socket and logs in a temporary
// directory; the machine's pmcd is only read, by the PMDA's pmie, for
// hinv.ncpu and the metrics of PCP's summary expressions), with real pmie
// as its child and then ours (pmie -h localhost -x -t 1 expr.pmie, as its
// Install has it), and checks that pminfo shows the same metrics through
// it: the same descriptors, the same values of those that hold still.
func TestSummaryPMDA(t *testing.T) {
	realtest.Require(t, realtest.Root, realtest.Pmcd, realtest.Pmie, realtest.SummaryPMDA)
	if testing.Short() {
		t.Skip("starts pmcd twice and waits for it (-short)")
	}
	dir := openDir(t)
	expr, err := os.ReadFile(filepath.Join(realtest.SummaryDir, "expr.pmie"))
	if err != nil {
		t.Fatal(err)
	}
	root := writeFile(t, dir, "root", summaryRoot)
	writeFile(t, dir, "expr.pmie", string(expr)+summaryTests)
	if err := os.MkdirAll(filepath.Join(dir, "pmdas", "summary"), 0o755); err != nil {
		t.Fatal(err)
	}
	help := exec.Command(realtest.Newhelp, "-n", root, "-o", filepath.Join(dir, "pmdas", "summary", "help"),
		filepath.Join(realtest.SummaryDir, "help"))
	if out, err := help.CombinedOutput(); err != nil {
		t.Fatalf("newhelp: %v\n%s", err, out)
	}
	// ours: this test binary, where the PMDA's user (pcp) can run it
	ours := filepath.Join(dir, "pmie")
	copyFile(t, os.Args[0], ours, 0o755)
	real, err := exec.LookPath("pmie")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range []struct{ name, pmie string }{{"real", real}, {"ours", ours}} {
		got[c.name] = summaryThroughPmcd(t, dir, c.pmie)
	}
	changing := regexp.MustCompile(`(?m)^(summary\.(cpu|disk|netif)\.\w+\n(?:.*\n){2})    value \S+\n`)
	for name, text := range got {
		if !changing.MatchString(text) {
			t.Fatalf("%s pmie: no value of PCP's summary metrics:\n%s", name, text)
		}
		got[name] = changing.ReplaceAllString(text, "${1}    value (changes)\n")
	}
	if got["ours"] != got["real"] {
		t.Errorf("through the summary PMDA, with real pmie:\n%s\nwith ours:\n%s", got["real"], got["ours"])
	}
	ncpu := strings.Fields(realtest.Pminfo(t, "-f", "hinv.ncpu"))
	if want := "summary.test.ncpu\n    Data Type: double  InDom: PM_INDOM_NULL 0xffffffff\n    Semantics: discrete  Units: none\n    value " +
		ncpu[len(ncpu)-1] + "\n"; !strings.Contains(got["ours"], want) {
		t.Errorf("summary.test.ncpu is not hinv.ncpu's %s:\n%s", ncpu[len(ncpu)-1], got["ours"])
	}
}

// summaryThroughPmcd starts a pmcd whose one agent is the summary PMDA
// running pmie as its child, waits until pminfo shows a value of each of
// the PMDA's metrics and returns what pminfo -d -f says of them, then
// stops the pmcd and checks that the PMDA and its pmie are gone.
func summaryThroughPmcd(t *testing.T, dir, pmie string) string {
	t.Helper()
	port := freePort(t)
	log := filepath.Join(dir, "summary.log")
	os.Remove(log)
	conf := writeFile(t, dir, "pmcd.conf", fmt.Sprintf("summary\t27\tpipe\tbinary\t%s/pmdasummary -d 27 -l %s %s -h localhost -x -t 1 %s\n",
		realtest.SummaryDir, log, pmie, filepath.Join(dir, "expr.pmie")))
	cmd := exec.Command(realtest.PmcdBinary, "-f", "-A", "-c", conf, "-n", filepath.Join(dir, "root"),
		"-p", strconv.Itoa(port), "-s", filepath.Join(dir, "pmcd.socket"),
		"-l", filepath.Join(dir, "pmcd.log"), "-x", filepath.Join(dir, "pmcd.err"))
	cmd.Dir = dir
	// pmcd starts the PMDA itself (not through the machine's pmdaroot,
	// which would start it in its own environment), with the
	// environment the PMDA and its pmie need: the namespace of the
	// summary metrics, and this test binary acting as pmie
	cmd.Env = append(os.Environ(), "PMCD_ROOT_AGENT=0", "PCP_RUN_DIR="+dir, "PCP_LOG_DIR="+dir,
		"PCP_PMDAS_DIR="+filepath.Join(dir, "pmdas"), "PCP_PMCDCONF_PATH="+conf,
		"PMNS_DEFAULT="+filepath.Join(dir, "root"), "PMIE_TEST_RUN_AS_PMIE=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
		summaryGone(t, log)
	}
	defer stop()
	host := "localhost:" + strconv.Itoa(port)
	var text string
	for end := time.Now().Add(hangBound); ; time.Sleep(200 * time.Millisecond) {
		out, _ := exec.Command("pminfo", "-h", host, "-d", "-f", "summary").CombinedOutput()
		text = string(out)
		if strings.Count(text, "    value ") == 9 {
			break
		}
		if time.Now().After(end) {
			b, _ := os.ReadFile(log)
			t.Fatalf("%s: pminfo -h %s -d -f summary still says\n%s\nthe PMDA's log:\n%s", pmie, host, text, b)
		}
	}
	stop()
	return text
}

// summaryGone checks, once pmcd has stopped, that the summary PMDA's pmie
// (whose process the PMDA's log names) has stopped too, killing it if not.
func summaryGone(t *testing.T, log string) {
	t.Helper()
	b, _ := os.ReadFile(log)
	m := regexp.MustCompile(`clientPID = (\d+)`).FindSubmatch(b)
	if m == nil {
		t.Errorf("no pmie started by the summary PMDA:\n%s", b)
		return
	}
	pid, _ := strconv.Atoi(string(m[1]))
	for end := time.Now().Add(hangBound); syscall.Kill(pid, 0) == nil; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("pmie %d still running after pmcd stopped", pid)
			return
		}
	}
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, mode); err != nil {
		t.Fatal(err)
	}
}
