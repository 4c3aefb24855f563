package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files that are ours (crafted-*.ours.gz)")

// shellGoldens is testdata/golden/shell-actions (see its gen.sh).
const shellGoldens = "testdata/golden/shell-actions"

// reportStart matches the first line of an action pmie reports in
// archive mode ("shell Tue Nov 14 22:13:20 2023: ..."); a value holding a
// newline continues it on the lines after.
var reportStart = regexp.MustCompile(`^(print|shell|alarm|syslog|stomp) [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d \d{4}: `)

// reports splits pmie's archive-mode output into the actions it reports.
func reports(out string) []string {
	var rs []string
	for _, line := range strings.SplitAfter(out, "\n") {
		if len(rs) == 0 || reportStart.MatchString(line) {
			rs = append(rs, line)
			continue
		}
		rs[len(rs)-1] += line
	}
	return rs
}

// kind is the action a report is of.
func kind(report string) string {
	k, _, _ := strings.Cut(report, " ")
	return k
}

// TestShellActionsGolden runs the pmie files made from PCP's pmieconf
// templates (every rule and shell action enabled) and a file of every
// action and quoting place over two archives. With benign values (host
// names and instance names as real systems have) every action, shell
// actions included, reads exactly as real pmie's. With crafted values
// only shell actions differ: their values are quoted.
func TestShellActionsGolden(t *testing.T) {
	for _, archive := range []string{"benign", "crafted"} {
		for _, rules := range []string{"rules", "actions"} {
			name := archive + "-" + rules
			t.Run(name, func(t *testing.T) {
				code, out, errs := runPmie(t, "-z", "-a", "testdata/archives/shell/"+archive,
					"-c", filepath.Join(shellGoldens, rules+".pmie"))
				if code != 0 {
					t.Fatalf("status %d: %s", code, errs)
				}
				real := readGz(t, filepath.Join(shellGoldens, name+".out.gz"))
				if archive == "benign" {
					compareLines(t, out, real)
					checkNoRefusals(t, errs)
				} else {
					compareCrafted(t, out, real, filepath.Join(shellGoldens, name+".ours.gz"))
					checkRefusals(t, errs, rules)
					runCrafted(t, out)
				}
				n := 0
				for _, r := range reports(out) {
					if kind(r) == "shell" {
						n++
					}
				}
				if n < 20 {
					t.Errorf("only %d shell actions reported", n)
				}
				t.Logf("%d actions reported, %d of them shell", len(reports(out))-1, n)
			})
		}
	}
}

// checkRefusals checks that over the crafted archive, the shell actions of
// actions.pmie with %i in a comment or backquotes are refused (once for
// each of the three times they fire) and no others.
func checkRefusals(t *testing.T, errs, rules string) {
	t.Helper()
	want := map[string]int{"rules": 0, "actions": 6}[rules]
	if n := strings.Count(errs, "shell action not run: %i value "); n != want {
		t.Errorf("%d actions refused, want %d:\n%s", n, want, errs)
	}
}

// runCrafted runs every shell command ours reports over the crafted
// archive (but those refused) with sh, in an empty directory with an
// empty PATH (so only the shell's builtins run): none may run the crafted
// values' commands.
func runCrafted(t *testing.T, out string) {
	t.Helper()
	dir := t.TempDir()
	var script strings.Builder
	n := 0
	for _, r := range reports(out) {
		if kind(r) != "shell" || strings.Contains(r, "backquoted:") || strings.Contains(r, "# comment:") {
			continue
		}
		_, text, _ := strings.Cut(r, ": ")
		script.WriteString(text)
		n++
	}
	cmd := exec.Command("/bin/sh", "-c", script.String())
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + dir}
	msgs, _ := cmd.CombinedOutput()
	if p := pwned(t, dir); len(p) > 0 {
		t.Errorf("the commands ran crafted values' commands: %v\n%s", p, msgs)
	}
	if strings.Contains(string(msgs), "Syntax error") {
		t.Errorf("the commands are not all valid:\n%s", msgs)
	}
	if n < 10 {
		t.Errorf("only %d commands run", n)
	}
}

func checkNoRefusals(t *testing.T, errs string) {
	t.Helper()
	if strings.Contains(errs, "action not run:") {
		t.Errorf("actions refused:\n%s", errs)
	}
}

// compareCrafted checks our output for crafted values: reports other than
// shell as real pmie's, as many shell reports, and all as the golden of
// ours says.
func compareCrafted(t *testing.T, out, real, oursFile string) {
	t.Helper()
	ours, theirs := reports(out), reports(real)
	if len(ours) != len(theirs) {
		t.Fatalf("%d reports, real pmie %d", len(ours), len(theirs))
	}
	differ := 0
	for i := range ours {
		if kind(ours[i]) != kind(theirs[i]) {
			t.Fatalf("report %d: %q, real pmie %q", i, ours[i], theirs[i])
		}
		switch {
		case ours[i] == theirs[i]:
		case kind(ours[i]) == "shell":
			differ++
		default:
			t.Errorf("report %d differs from real pmie's:\n got  %q\n want %q", i, ours[i], theirs[i])
		}
	}
	if differ == 0 {
		t.Error("no shell action quoted a crafted value")
	}
	t.Logf("%d shell actions quoted crafted values", differ)
	if *update {
		var b bytes.Buffer
		z, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		z.Write([]byte(out))
		z.Close()
		if err := os.WriteFile(oursFile, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	compareLines(t, out, readGz(t, oursFile))
}

// TestShellValuesGolden checks %v where pmie writes it as several words
// (a sample window, instances) or as strings in double quotes: the spaces
// and pmie's quotes stay text of the command, so the command is real
// pmie's (testdata/golden/shell-values, made by its gen.sh).
func TestShellValuesGolden(t *testing.T) {
	const dir = "testdata/golden/shell-values"
	code, out, errs := runPmie(t, "-z", "-a", "testdata/archives/linux-v3", "-c", dir+"/values.pmie")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	want, err := os.ReadFile(dir + "/values.out")
	if err != nil {
		t.Fatal(err)
	}
	compareLines(t, out, string(want))
	checkNoRefusals(t, errs)
}
