package actions

import (
	"reflect"
	"testing"
)

func TestSyslogArgs(t *testing.T) {
	cases := []struct {
		args     []string
		rest     []string
		pri      int
		tag      string
		warnings int
	}{
		{[]string{"hello"}, []string{"hello"}, LogNotice, "pcp-pmie", 0},
		{[]string{"-p daemon.info", "msg"}, []string{"msg"}, 6 | 3<<3, "pcp-pmie", 0},
		{[]string{"-p", "user.err", "-t", "mine", "a", "b"}, []string{"a", "b"}, 3 | 1<<3, "mine", 0},
		{[]string{"-t mytag message"}, nil, LogNotice, "mytag", 1},
		{[]string{"-p bogus", "x"}, []string{"x"}, LogNotice, "pcp-pmie", 1},
		{[]string{"-x", "y"}, []string{"-x", "y"}, LogNotice, "pcp-pmie", 0},
		{[]string{"-p"}, nil, LogNotice, "pcp-pmie", 1},
	}
	for _, c := range cases {
		rest, pri, tag, w := SyslogArgs(c.args)
		if !reflect.DeepEqual(rest, c.rest) || pri != c.pri || tag != c.tag || len(w) != c.warnings {
			t.Errorf("%q: got %q %d %q %q", c.args, rest, pri, tag, w)
		}
	}
}
