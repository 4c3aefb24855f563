package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/damaged"
)

// evaluatorExiting is pmie's last message, which carries the time and
// process id; the goldens leave it out.
var evaluatorExiting = regexp.MustCompile(`(?m)^\[[^]]*\] pmie\(\d+\) Info: evaluator exiting\n`)

// TestDamagedArchives runs pmie over each archive of the damaged corpus
// (package internal/damaged) with a few rules, and compares what it
// prints with what real pmie printed (testdata/golden/damaged/pmie.txt,
// made by gen.sh there), leaving out the lines ours adds on stderr to
// say where the damage is. Where they differ (real pmie crashes, loops,
// or reads garbage), ours must name the damaged file and the offset.
func TestDamagedArchives(t *testing.T) {
	want, err := damaged.ReadRuns("../../testdata/golden/damaged/pmie.txt")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := filepath.Abs("../../testdata/golden/damaged/rules")
	if err != nil {
		t.Fatal(err)
	}
	cases := damaged.Corpus(t, "../..")
	t.Setenv("TZ", "UTC")
	t.Setenv("PCP_DERIVED_CONFIG", "")
	damaged.CheckRuns(t, "pmie", cases, want, func(c damaged.Case) damaged.Run {
		var stdout, stderr bytes.Buffer
		args := []string{"-a", c.Name, "-c", filepath.Join(rules, damaged.Rules(c.Source)+".pmie")}
		status := run(context.Background(), nil, args, strings.NewReader(""), &stdout, &stderr)
		return damaged.Run{Exit: status, Stdout: stdout.String(), Stderr: evaluatorExiting.ReplaceAllString(stderr.String(), "")}
	})
}

// TestFetchDamageMessage checks how pmie reports a record found damaged
// while evaluating: in pmie's words, as pmie 6.0.3 does ("pmFetch failed:"
// and PCP's message), then a line saying where the record is.
func TestFetchDamageMessage(t *testing.T) {
	dir := t.TempDir()
	for _, ext := range []string{".0", ".meta", ".index"} {
		data, err := os.ReadFile("../../testdata/archives/pmie/alpha" + ext)
		if err != nil {
			t.Fatal(err)
		}
		if ext == ".0" {
			// a value block's header two thirds in claims a length
			// running past its record
			at := len(data) * 2 / 3
			copy(data[at:], []byte{0xff, 0xff, 0xff, 0x7f})
		}
		if err := os.WriteFile(filepath.Join(dir, "alpha"+ext), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rules := filepath.Join(dir, "r.pmie")
	if err := os.WriteFile(rules, []byte(`x = some_inst ( sample.late > -1 ) -> print "y";`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TZ", "UTC")
	var stdout, stderr bytes.Buffer
	arch := filepath.Join(dir, "alpha")
	status := run(context.Background(), nil, []string{"-a", arch, "-c", rules}, strings.NewReader(""), &stdout, &stderr)
	got := evaluatorExiting.ReplaceAllString(stderr.String(), "")
	want := regexp.MustCompile(`(?m)\Apmie: pmFetch failed: Corrupted record in a PCP archive log\n` +
		`pmie: ` + regexp.QuoteMeta(arch) + `\.0: volume 0: offset \d+: value block length \d+ runs past the record\n\z`)
	if status != 1 || !want.MatchString(got) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and stderr matching %s", status, got, want)
	}
}
