package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/goldenfile"
	"github.com/gopcp/pmie/internal/pmcdtest"
	"github.com/gopcp/pmie/internal/realtest"
	"github.com/gopcp/pmie/pmapi"
)

// ctimeDate is a date as ctime(3) writes it, as pmie's print actions and
// -v/-V lines have it live.
var ctimeDate = regexp.MustCompile(`[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d \d{4}`)

// TestLiveGoldens runs each case of testdata/golden/pmie-live live, as a
// process of its own (this test binary as pmie: what shell actions write
// goes to its standard output and error) with the case's environment
// added to its own, and compares its exit status,
// output, messages and -l $LOG log with real pmie's. A case on $SAMPLE
// runs against sampleStandIn; the others, and those of usesLocalPmcd,
// need the local pmcd.
func TestLiveGoldens(t *testing.T) {
	logDate := regexp.MustCompile(`(?m)^(Log for pmie on \S+ started|Log finished) .*$`)
	logPID := regexp.MustCompile(`(?m)^pmie: PID = \d+,`)
	goldenCases(t, filepath.Join(repoRoot, "testdata/golden/pmie-live"), 3, func(t *testing.T, f []string) string {
		env, args := f[1], f[2]
		vars := map[string]string{"LOG": filepath.Join(openDir(t), "pmie.log")} // pmie run as root logs as pcp
		sample, during := "", func() {}
		if strings.Contains(args, "$SAMPLE") {
			srv := sampleStandIn(t)
			sample = srv.Spec()
			vars["SAMPLE"] = sample
			if d := liveDuring[f[0]]; d != nil {
				during = func() { d(srv) }
			}
		}
		if sample == "" || usesLocalPmcd[f[0]] {
			realtest.Require(t, realtest.Pmcd)
		}
		clean := func(s string) string {
			s = ctimeDate.ReplaceAllString(logStamp.ReplaceAllString(s, "[STAMP] "), "[DATE]")
			s = logPID.ReplaceAllString(logDate.ReplaceAllString(s, "$1 [DATE]"), "pmie: PID = PID,")
			if sample != "" {
				s = strings.ReplaceAll(s, sample, "@SAMPLE@")
			}
			return goldenClean(s, func(string) bool { return false })
		}
		var out, errs bytes.Buffer
		cmd := exec.Command(os.Args[0], goldenfile.Words(args, vars)...)
		cmd.Dir = repoRoot
		cmd.Env = append(append(ourEnv(), "TZ=UTC"), goldenfile.Words(env, vars)...)
		cmd.Stdout, cmd.Stderr = &out, &errs
		code := 0
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go during()
		if err := cmd.Wait(); err != nil {
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatal(err)
			}
			code = exit.ExitCode()
		}
		if env != "" {
			env += " "
		}
		return goldenReport("TZ=UTC "+env+"pmie "+args, code, clean(out.String()), clean(errs.String())) +
			goldenLog(vars["LOG"], clean)
	})
}

// usesLocalPmcd names the $SAMPLE cases whose rules also name the local
// pmcd.
var usesLocalPmcd = map[string]bool{"twohosts": true, "twohosts-local": true}

// liveDuring is what gen.sh's during does to the sample PMDA while a case
// runs, done to the stand-in.
var liveDuring = map[string]func(*pmcdtest.Server){
	// pmstore sample.dynamic.meta.pmdesc.type 5: the metric's value, 42,
	// travels as a double from then on
	"typechange": func(srv *pmcdtest.Server) {
		time.Sleep(1500 * time.Millisecond)
		srv.SetValues("sample.dynamic.meta.metric", []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.F64(42)}})
	},
}

// sampleStandIn is a pmcd stand-in serving what the $SAMPLE cases of
// testdata/golden/pmie-live use of PCP's sample PMDA (as pmdasample 6.0.3
// describes it), with no pmcd PMDA: no pmcd.timezone. It names its host
// as this machine, as libpcp does for a pmcd on localhost that cannot.
func sampleStandIn(t *testing.T) *pmcdtest.Server {
	host, _ := os.Hostname()
	return pmcdtest.Start(t, pmcdtest.Namespace{
		Hostname: host,
		Metrics: []pmcdtest.Metric{
			{Name: "sample.long.one", Desc: pmapi.Desc{PMID: pmapi.NewPMID(29, 0, 10), Type: pmapi.Type32, InDom: pmapi.InDomNull, Sem: pmapi.SemInstant},
				Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.I32(1)}}},
			{Name: "sample.dynamic.meta.metric", Desc: pmapi.Desc{PMID: pmapi.NewPMID(29, 0, 86), Type: pmapi.Type32, InDom: pmapi.InDomNull, Sem: pmapi.SemDiscrete,
				Units: pmapi.Units{DimSpace: 1, DimTime: -1, ScaleSpace: pmapi.SpaceByte, ScaleTime: pmapi.TimeSec}},
				Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.I32(42)}}},
		},
	})
}
