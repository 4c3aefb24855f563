package pcpopt

import (
	"reflect"
	"strings"
	"testing"
)

var table = []Option{
	Header("General options"),
	{Long: "archive", HasArg: true, Short: 'a', ArgName: "FILE", Help: "metrics source is a PCP log archive"},
	{Long: "container", HasArg: true, ArgName: "NAME", Help: "specify a container"},
	{Long: "desc", Short: 'd', Help: "print descriptions"},
	{Long: "fetch", Short: 'f', Help: "fetch"},
	{Long: "fetchall", Short: 'F', Help: "fetch all"},
	{Long: "fullpmid", Short: 'M', Help: "full PMIDs"},
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		args     []string
		events   []Event
		operands []string
	}{
		{[]string{"-df", "x", "-a", "arch", "y"},
			[]Event{{Short: 'd'}, {Short: 'f'}, {Short: 'a', Arg: "arch"}}, []string{"x", "y"}},
		{[]string{"-aarch", "--", "-d"}, []Event{{Short: 'a', Arg: "arch"}}, []string{"-d"}},
		{[]string{"-", "--archive=a,b", "--desc"},
			[]Event{{Short: 'a', Long: "archive", Arg: "a,b"}, {Short: 'd', Long: "desc"}}, []string{"-"}},
		{[]string{"--arch", "x"}, []Event{{Short: 'a', Long: "archive", Arg: "x"}}, nil},
		{[]string{"--container", "c"}, []Event{{Long: "container", Arg: "c"}}, nil},
		{[]string{"--fetch"}, []Event{{Short: 'f', Long: "fetch"}}, nil},
		{[]string{"-dq"}, []Event{{Short: 'd'}, {Short: '?', Err: "invalid option -- 'q'"}}, nil},
		{[]string{"-a"}, []Event{{Short: '?', Err: "option requires an argument -- 'a'"}}, nil},
		{[]string{"--archive"}, []Event{{Short: '?', Err: "option '--archive' requires an argument"}}, nil},
		{[]string{"--de=1"}, []Event{{Short: '?', Err: "option '--desc' doesn't allow an argument"}}, nil},
		{[]string{"--bogus=1"}, []Event{{Short: '?', Err: "unrecognized option '--bogus=1'"}}, nil},
		{[]string{"--f"}, []Event{{Short: '?',
			Err: "option '--f' is ambiguous; possibilities: '--fetch' '--fullpmid' '--fetchall'"}}, nil},
	} {
		evs, ops := Parse(c.args, "a:dfFM", table)
		if !reflect.DeepEqual(evs, c.events) || !reflect.DeepEqual(ops, c.operands) {
			t.Errorf("Parse(%q) = %+v %q, want %+v %q", c.args, evs, ops, c.events, c.operands)
		}
	}
}

func TestStandard(t *testing.T) {
	var s Standard
	s.Prog = "tool"
	s.Environ([]string{"PCP_ARCHIVE=first", "HOME=/root", "PCP_HOSTZONE=1"})
	for _, ev := range []Event{{Short: 'a', Arg: "second"}, {Short: 'a', Arg: "first"}, {Short: 'Z', Arg: "UTC"}} {
		s.Apply(ev)
	}
	s.End()
	if s.Archives[0] != "first,second" || s.Errors != 1 || s.Context == 0 {
		t.Errorf("archives %q errors %d context %v", s.Archives, s.Errors, s.Context)
	}
	if want := []string{"tool: at most one of -Z and -z allowed\n"}; !reflect.DeepEqual(s.Msgs, want) {
		t.Errorf("messages %q, want %q", s.Msgs, want)
	}
}

func TestUsage(t *testing.T) {
	want := "Usage: tool [options]\n\nGeneral options:\n" +
		"  -a FILE, --archive=FILE\n                        metrics source is a PCP log archive\n" +
		"  --container=NAME      specify a container\n" +
		"  -d, --desc            print descriptions\n" +
		"  -f, --fetch           fetch\n" +
		"  -F, --fetchall        fetch all\n" +
		"  -M, --fullpmid        full PMIDs\n"
	if got := Usage("tool", "[options]", table); got != want {
		t.Errorf("Usage =\n%s\nwant\n%s", got, want)
	}
}

// FuzzParse checks that no command line makes Parse panic, and that it
// gives no more operands than there are arguments, nor more events than
// option letters.
func FuzzParse(f *testing.F) {
	f.Add("-df\x00x\x00--arch=a\x00--\x00-z")
	f.Add("--f\x00-a")
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\x00")
		evs, ops := Parse(args, "a:dfFM", table)
		if len(ops) > len(args) || len(evs) > 2*len(line)+len(args) {
			t.Errorf("Parse(%q) gave %d events and %d operands", args, len(evs), len(ops))
		}
	})
}

// TestLocalSpec checks -K's spec syntax against what libpcp 6.0.3 says
// (pminfo -K SPEC; the cmd/pminfo goldens K-*.golden hold some of them).
func TestLocalSpec(t *testing.T) {
	for spec, want := range map[string]string{
		"clear": "", "clear,3": "unexpected text after clear op in spec", "cleared": "unexpected text after clear op in spec",
		"x": "bad op in spec", "": "bad op in spec", "add": "expected , after op in spec", "addx": "expected , after op in spec",
		"add,": "missing domain in spec", "add,,x": "missing domain in spec", "del,x": "bad domain in spec",
		"del,3x": "bad domain in spec", "del,511": "bad domain in spec", "del,-1": "bad domain in spec",
		"del,99999999999999999999": "bad domain in spec", "del,,": "missing domain and dso-path in spec",
		"add,3": "missing dso-path in spec", "add,3,x.so": "missing init-routine in spec",
		"add,3,x.so,": "missing init-routine in spec", "add,3,x.so,init": "", "add,2,,init": "", "add,3,,": "",
		"del, 60": "", "del,+60": "", "del,60,": "", "del,,x": "", "del,60,x": "", "add,3,x,y,z": "",
	} {
		if got := localSpecError(spec); got != want {
			t.Errorf("-K %q: %q, want %q", spec, got, want)
		}
	}
}
