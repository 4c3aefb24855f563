package fleet

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/realtest"
)

const farmDir = "../../testdata/golden/pmie-control"

// copyFarm copies the golden farm to a new directory.
func copyFarm(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(farmDir, "farm"))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// golden is what pmie_check's output says: the pmie command lines and
// the errors and warnings at lines of control files.
type golden struct {
	commands []string // "-h HOST -l LOG ARGS", or "-F -P -l LOG ARGS"
	problems []string // "FILE:LINE: error: MSG"
}

var (
	commandLine = regexp.MustCompile(`^\+ \S*pmie -b (.*)$`)
	placeLine   = regexp.MustCompile(`^pmie_check:? \[(.*)\]$`)
)

func readGolden(t *testing.T, text string) golden {
	var g golden
	sc := bufio.NewScanner(strings.NewReader(text))
	place := ""
	for sc.Scan() {
		line := sc.Text()
		if m := commandLine.FindStringSubmatch(line); m != nil {
			g.commands = append(g.commands, m[1])
			continue
		}
		if m := placeLine.FindStringSubmatch(line); m != nil {
			place = m[1]
			continue
		}
		if place == "" {
			continue
		}
		if msg, ok := strings.CutPrefix(line, "Error: "); ok {
			g.problems = append(g.problems, place+": error: "+msg)
		} else if msg, ok := strings.CutPrefix(line, "Warning: "); ok {
			g.problems = append(g.problems, place+": warning: "+msg)
		}
		place = ""
	}
	return g
}

// command is the pmie command line pmie_check starts for m (its
// arguments as our member holds them).
func command(m Member) string {
	args := "-h " + m.Host + " -l " + m.Log + " -c " + filepath.Base(m.RuleFiles[0])
	if m.Interval != "" {
		args += " -t " + m.Interval
	}
	if m.Verbose == 1 {
		args += " -v"
	}
	if m.ShowTime {
		args += " -e"
	}
	return args
}

// checkAgainst compares ReadControl on the farm in dir with what
// pmie_check said of it (out, with dir and host as written there).
func checkAgainst(t *testing.T, dir, host, out string) {
	t.Helper()
	out = strings.ReplaceAll(strings.ReplaceAll(out, "@DIR@", dir), "@HOST@", host)
	g := readGolden(t, out)
	members, problems := ReadControl(filepath.Join(dir, "control"), Env{LogDir: dir + "/log", VarDir: dir + "/var", Hostname: host})
	var got []string
	for _, m := range members {
		got = append(got, command(m))
	}
	var want []string
	primary := 0
	for _, c := range g.commands {
		if strings.HasPrefix(c, "-F -P ") {
			primary++ // left to pmie.service: a warning of ours
			continue
		}
		want = append(want, c)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("members:\n%s\npmie_check starts:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var ours []string
	extra := map[string]int{}
	for _, p := range problems {
		switch {
		case strings.Contains(p.Msg, "left to pmie.service"):
			extra["primary"]++
		case strings.Contains(p.Msg, "no pmsocks available"):
			extra["socks"]++ // pmie_check says it without the line
		default:
			ours = append(ours, p.Error())
		}
	}
	if strings.Join(ours, "\n") != strings.Join(g.problems, "\n") {
		t.Errorf("problems:\n%s\npmie_check:\n%s", strings.Join(ours, "\n"), strings.Join(g.problems, "\n"))
	}
	if extra["primary"] != primary || extra["socks"] != strings.Count(out, "no pmsocks available") {
		t.Errorf("primary and socks warnings %v, pmie_check: %d primary, %d without pmsocks", extra, primary,
			strings.Count(out, "no pmsocks available"))
	}
}

// ReadControl finds the members and problems pmie_check finds in the
// golden farm (pmie_check.out, made by gen.sh).
func TestControlGolden(t *testing.T) {
	out, err := os.ReadFile(filepath.Join(farmDir, "pmie_check.out"))
	if err != nil {
		t.Fatal(err)
	}
	checkAgainst(t, copyFarm(t), "farmhost", string(out))
}

// The same, against real pmie_check run now.
func TestControlLivePmieCheck(t *testing.T) {
	realtest.Require(t, realtest.PmieCheck)
	dir := copyFarm(t)
	// its own PCP_TMP_DIR: pmie_check asks every pmie running on the
	// machine (their files there) whether it is one of the farm's, which
	// takes minutes on a machine running many
	tmp := t.TempDir()
	os.Mkdir(filepath.Join(tmp, "pmie"), 0o755)
	cmd := exec.Command("/usr/lib/pcp/bin/pmie_check", "-N", "-V", "-c", filepath.Join(dir, "control"))
	cmd.Env = append(os.Environ(), "PCP_LOG_DIR="+dir+"/log", "PCP_VAR_DIR="+dir+"/var", "PCP_TMP_DIR="+tmp)
	out, err := cmd.CombinedOutput()
	if _, failed := err.(*exec.ExitError); err != nil && !failed {
		t.Fatalf("pmie_check: %v\n%s", err, out) // it exits 1 for the farm's errors
	}
	host, _ := os.Hostname()
	checkAgainst(t, dir, host, strings.ReplaceAll(string(out), host, "@HOST@"))
}

func TestControlDetails(t *testing.T) {
	dir := copyFarm(t)
	members, _ := ReadControl(filepath.Join(dir, "control"), Env{LogDir: dir + "/log", VarDir: dir + "/var", Hostname: "farmhost"})
	byLog := map[string]Member{}
	for _, m := range members {
		byLog[strings.TrimPrefix(m.Log, dir+"/log/pmie/")] = m
	}
	alpha := byLog["alpha/pmie.log"]
	if want := dir + "/log/pmie/alpha/local.pmie"; len(alpha.RuleFiles) != 1 || alpha.RuleFiles[0] != want {
		t.Errorf("alpha's rules %v, want %s (beside its log)", alpha.RuleFiles, want)
	}
	if alpha.ConnectTimeout.Seconds() != 20 || alpha.RequestTimeout != 0 || alpha.From != dir+"/control:9" {
		t.Errorf("alpha: %+v", alpha)
	}
	if eta := byLog["eta/pmie.log"]; eta.RequestTimeout.Seconds() != 15 || eta.Class != "" {
		t.Errorf("eta: %+v", eta)
	}
	web := byLog["web-web2/pmie.log"]
	if web.Class != "web" || web.Interval != "1min" || web.RuleFiles[0] != dir+"/var/config/pmie/config.web" {
		t.Errorf("web2: %+v", web)
	}
	if b := byLog["beta/second.log"]; b.Verbose != 1 || !b.ShowTime || b.ID() == byLog["beta/pmie.log"].ID() {
		t.Errorf("beta's second pmie: %+v", b)
	}
	if l := byLog["local/pmie.log"]; l.Host != "local:" {
		t.Errorf("LOCALHOSTNAME: %+v", l)
	}
}

func TestControlRefusesOptions(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "r.pmie"), []byte("x = 1;"), 0o644)
	text := "$version=1.1\n" +
		"a n n " + dir + "/a.log -c r.pmie -a archive\n" +
		"b n n " + dir + "/b.log -c nosuch.pmie\n" +
		"c n n relative.log -c r.pmie\n" +
		"d n n " + dir + "/d.log -c r.pmie extra\n" +
		"e n n " + dir + "/e.log -q r.pmie\n"
	members, problems := ParseControl("ctl", text, Env{VarDir: dir + "/var", LogDir: dir, Hostname: "h"})
	var got []string
	for _, p := range problems {
		got = append(got, strings.ReplaceAll(p.Error(), dir, "DIR"))
	}
	want := []string{
		"ctl:2: error: pmie option -a is not supported for a host of a fleet",
		"ctl:3: error: cannot find rule file nosuch.pmie in DIR or DIR/var/config/pmie (pmie_check would make it with pmieconf -f DIR/var/config/pmie/nosuch.pmie -cF)",
		"ctl:4: error: log file relative.log is not an absolute path",
		"ctl:5: error: pmie arguments: extra filenames cannot be given after using -c",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(members) != 1 || members[0].Host != "e" || !members[0].Quiet || members[0].RuleFiles[0] != dir+"/r.pmie" {
		t.Errorf("members %+v", members)
	}
}

func TestParseHosts(t *testing.T) {
	hosts, problems := ParseHosts("h.txt", "# web servers\nweb1\n  web2:44322  # the second\n\nweb3 web4\nunix:/run/pcp/pmcd.socket\n")
	if strings.Join(hosts, ",") != "web1,web2:44322,unix:/run/pcp/pmcd.socket" {
		t.Errorf("hosts %q", hosts)
	}
	if len(problems) != 1 || problems[0].Error() != `h.txt:5: error: one host a line, not "web3 web4"` {
		t.Errorf("problems %v", problems)
	}
}

func FuzzParseControl(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join(farmDir, "farm", "control")); err == nil {
		f.Add(string(b))
	}
	f.Add("$version=1.0\nh n log -c x\n$a='b\n$c=\"d\" e\n")
	f.Fuzz(func(t *testing.T, text string) {
		members, problems := ParseControl("ctl", text, Env{LogDir: "/nonexistent", VarDir: "/nonexistent", Hostname: "h"})
		for _, m := range members {
			if m.Host == "" || len(m.RuleFiles) == 0 || !filepath.IsAbs(m.Log) {
				t.Fatalf("member %+v", m)
			}
		}
		for _, p := range problems {
			if p.Line < 1 {
				t.Fatalf("problem without a line: %v", p)
			}
		}
	})
}

func FuzzParseHosts(f *testing.F) {
	f.Add("a\nb # c\n d e\n")
	f.Fuzz(func(t *testing.T, text string) {
		hosts, _ := ParseHosts("h", text)
		for _, h := range hosts {
			if h == "" || strings.ContainsAny(h, " \t\n#") {
				t.Fatalf("host %q", h)
			}
		}
	})
}
