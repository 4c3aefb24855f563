// Package realtest lets tests use the real components installed on the
// machine: PCP's pmcd, pmie, service scripts and Python module, rsyslog
// and Prometheus Alertmanager. A test that needs one calls Require:
// without it the test is skipped, unless PMIE_REQUIRE_PMCD=1 (as .ci/run
// sets), when it fails instead, so that CI can never pass by skipping.
package realtest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Component is something real a test needs.
type Component int

// The components tests can ask for.
const (
	// Pmcd is real pminfo with the local pmcd answering.
	Pmcd Component = iota
	// Pmie is real pmie installed.
	Pmie
	// PmieCheck is PCP's pmie_check script, run as root.
	PmieCheck
	// Rsyslog is the rsyslogd daemon (started by the test itself).
	Rsyslog
	// Alertmanager is Debian's prometheus-alertmanager binary (started by
	// the test itself).
	Alertmanager
	// Root is running as the superuser.
	Root
	// Proc is the local pmcd serving the proc PMDA's metrics
	// (proc.psinfo.*), as PCP's default pmcd.conf has it.
	Proc
	// PCPPython is python3-pcp: /usr/bin/python3 with PCP's pmi module,
	// for writing archives.
	PCPPython
	// SummaryPMDA is PCP's summary PMDA (pmdasummary, whether installed
	// in pmcd.conf or not), pmcd's binary and newhelp, to run the PMDA
	// under a pmcd of the test's own (see PmcdBinary).
	SummaryPMDA
)

// The PCP programs a private pmcd with the summary PMDA needs, where
// Debian's packages put them.
const (
	PmcdBinary  = "/usr/lib/pcp/bin/pmcd"
	Newhelp     = "/usr/lib/pcp/bin/newhelp"
	SummaryDir  = "/var/lib/pcp/pmdas/summary"
	pmdaSummary = SummaryDir + "/pmdasummary"
)

// Required reports whether missing components fail tests rather than skip
// them.
func Required() bool { return os.Getenv("PMIE_REQUIRE_PMCD") == "1" }

// Require skips t (or, when Required, fails it) unless every component
// named is here.
func Require(t testing.TB, cs ...Component) {
	t.Helper()
	for _, c := range cs {
		why := missing(c)
		if why == "" {
			continue
		}
		if Required() {
			t.Fatal("PMIE_REQUIRE_PMCD=1 but " + why)
		}
		t.Skip(why)
	}
}

// Python is the python3 that Debian's python3-pcp is installed for.
const Python = "/usr/bin/python3"

// AlertmanagerPath is where Debian installs Alertmanager.
const AlertmanagerPath = "/usr/bin/prometheus-alertmanager"

func missing(c Component) string {
	switch c {
	case Pmcd:
		if _, err := exec.LookPath("pminfo"); err != nil {
			return "pminfo not installed"
		}
		if out, err := exec.Command("pminfo", "-f", "pmcd.version").CombinedOutput(); err != nil {
			return "pmcd not answering: " + strings.TrimSpace(string(out))
		}
	case Pmie:
		if _, err := exec.LookPath("pmie"); err != nil {
			return "real pmie not installed"
		}
	case PmieCheck:
		if os.Geteuid() != 0 {
			return "pmie_check needs root"
		}
		if _, err := os.Stat("/usr/lib/pcp/bin/pmie_check"); err != nil {
			return "pmie_check not installed"
		}
	case Rsyslog:
		if _, err := exec.LookPath("rsyslogd"); err != nil {
			if _, err := os.Stat("/usr/sbin/rsyslogd"); err != nil {
				return "rsyslogd not installed"
			}
		}
	case Alertmanager:
		if _, err := os.Stat(AlertmanagerPath); err != nil {
			return "prometheus-alertmanager not installed"
		}
	case Root:
		if os.Geteuid() != 0 {
			return "not running as root"
		}
	case Proc:
		if why := missing(Pmcd); why != "" {
			return why
		}
		if out, err := exec.Command("pminfo", "-h", "local:", "-d", "proc.psinfo.rss").CombinedOutput(); err != nil {
			return "pmcd has no proc PMDA: " + strings.TrimSpace(string(out))
		}
	case SummaryPMDA:
		for _, f := range []string{PmcdBinary, Newhelp, pmdaSummary} {
			if _, err := os.Stat(f); err != nil {
				return "no " + f + " (PCP's pmcd and summary PMDA)"
			}
		}
	case PCPPython:
		if err := exec.Command(Python, "-c", "from pcp import pmi").Run(); err != nil {
			return "python3-pcp's pmi module not installed"
		}
	}
	return ""
}

// Pminfo runs real pminfo and returns what it prints, failing t if it
// fails.
func Pminfo(t testing.TB, args ...string) string {
	t.Helper()
	out, err := exec.Command("pminfo", args...).Output()
	if err != nil {
		t.Fatalf("pminfo %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}
