package actions

import (
	"errors"
	"io"
	"net"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
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

// listen makes a socket of network ("unixgram" or "unix") in a temporary
// directory and returns its path and what arrives on it.
func listen(t *testing.T, network string) (string, <-chan []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "log")
	got := make(chan []byte, 10)
	if network == "unixgram" {
		c, err := net.ListenUnixgram(network, &net.UnixAddr{Name: path, Net: network})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		go func() {
			for {
				b := make([]byte, 4096)
				n, err := c.Read(b)
				if err != nil {
					return
				}
				got <- b[:n]
			}
		}()
		return path, got
	}
	l, err := net.Listen(network, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			b, _ := io.ReadAll(c)
			got <- b
		}
	}()
	return path, got
}

func receive(t *testing.T, got <-chan []byte) string {
	t.Helper()
	select {
	case b := <-got:
		return string(b)
	case <-time.After(5 * time.Second):
		t.Fatal("nothing received")
		return ""
	}
}

// TestSystemLog checks the bytes sent, as glibc's syslog(3) sends them
// for pmie (compared with real pmie's in cmd/pmie's TestSyslogSideBySide).
func TestSystemLog(t *testing.T) {
	at := time.Date(2026, 11, 5, 6, 7, 8, 0, time.Local)
	path, got := listen(t, "unixgram")
	l := &SystemLog{Path: path, Now: func() time.Time { return at }, PID: 4242}
	for _, c := range []struct {
		pri      int
		tag, msg string
		want     string
	}{
		{LogNotice, "pcp-pmie", "disk full", "<29>Nov  5 06:07:08 pcp-pmie[4242]: disk full"},
		{3 | 19<<3, "pcp-pmie", "with -p", "<155>Nov  5 06:07:08 pcp-pmie[4242]: with -p"},
		{6 | 1<<3, "mine", "both", "<14>Nov  5 06:07:08 mine[4242]: both"},
		{LogNotice, "pcp-pmie", "", "<29>Nov  5 06:07:08 pcp-pmie[4242]: "},
	} {
		if err := l.Send(c.pri, c.tag, c.msg); err != nil {
			t.Fatal(err)
		}
		if s := receive(t, got); s != c.want {
			t.Errorf("sent %q, want %q", s, c.want)
		}
	}
	// a stream socket gets a NUL after each message
	spath, sgot := listen(t, "unix")
	l.Path = spath
	if err := l.Send(LogNotice, "pcp-pmie", "m"); err != nil {
		t.Fatal(err)
	}
	if s := receive(t, sgot); s != "<29>Nov  5 06:07:08 pcp-pmie[4242]: m\x00" {
		t.Errorf("stream: sent %q", s)
	}
	l.Path = filepath.Join(t.TempDir(), "none")
	if err := l.Send(LogNotice, "pcp-pmie", "m"); err == nil {
		t.Error("no error with no system log")
	}
}

// TestSyslogOnce checks that a syslog action succeeds whether or not the
// system log is there, as pmie's does, and that its absence is said once
// while it lasts.
func TestSyslogOnce(t *testing.T) {
	up := false
	var said []string
	r := &Runner{Ctime: func(int64) string { return "T" }, Log: func(m string) { said = append(said, m) },
		Syslog: func(int, string, string) error {
			if up {
				return nil
			}
			return errors.New("connection refused")
		}}
	ev := &Event{Kind: Syslog, Text: []byte("m")}
	for i, state := range []bool{false, false, true, false, false} {
		up = state
		if !r.Run(ev) {
			t.Errorf("syslog action %d failed", i)
		}
	}
	if len(said) != 2 || !strings.Contains(said[0], "cannot reach the system log (connection refused)") {
		t.Errorf("said %q, want the outage said once each time", said)
	}
}

// TestNullMessage checks that an empty message is printed as pmie prints
// its null pointer, by print and by archive mode's reports.
func TestNullMessage(t *testing.T) {
	var out strings.Builder
	r := &Runner{Out: &out, Ctime: func(int64) string { return "T" }}
	r.Run(&Event{Kind: Print})
	r.Replay = true
	r.Run(&Event{Kind: Syslog})
	r.Run(&Event{Kind: Print, Text: []byte("x")})
	if want := "T: (null)\nsyslog T: (null)\nprint T: x\n"; out.String() != want {
		t.Errorf("printed %q, want %q", out.String(), want)
	}
}
