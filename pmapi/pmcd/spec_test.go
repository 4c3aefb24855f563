package pmcd_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/pmcd"
)

func TestParseSpec(t *testing.T) {
	t.Setenv("PMCD_PORT", "44321")
	t.Setenv("PMCD_SOCKET", "/tmp/pmcd.sock")
	str := func(s string) *string { return &s }
	for _, c := range []struct {
		in   string
		want pmcd.Spec
	}{
		{"localhost", pmcd.Spec{Host: "localhost", Ports: []int{44321}}},
		{"host.example.com:4321", pmcd.Spec{Host: "host.example.com", Ports: []int{4321}}},
		{"nas1:44321,4321", pmcd.Spec{Host: "nas1", Ports: []int{44321, 4321}}},
		{"192.168.0.103", pmcd.Spec{Host: "192.168.0.103", Ports: []int{44321}}},
		{"[fe80::1%eth0]:44321", pmcd.Spec{Host: "fe80::1%eth0", Ports: []int{44321}}},
		{"[::1]", pmcd.Spec{Host: "::1", Ports: []int{44321}}},
		{"pcp://nas3.acme.com", pmcd.Spec{Protocol: "pcp", Host: "nas3.acme.com", Ports: []int{44321}}},
		{"pcp://nas3:1234/", pmcd.Spec{Protocol: "pcp", Host: "nas3", Ports: []int{1234}}},
		{"unix:", pmcd.Spec{Protocol: "unix", Socket: "/tmp/pmcd.sock"}},
		{"local:", pmcd.Spec{Protocol: "local", Socket: "/tmp/pmcd.sock", Fallback: true}},
		{"unix:/run/x.sock", pmcd.Spec{Protocol: "unix", Socket: "/run/x.sock"}},
		{"local://run/x.sock", pmcd.Spec{Protocol: "local", Socket: "/run/x.sock", Fallback: true}},
		{"unix:relative.sock", pmcd.Spec{Protocol: "unix", Socket: "/relative.sock"}},
		// a path of one character before ':' or '?' is the default
		{"unix:/x?", pmcd.Spec{Protocol: "unix", Socket: "/tmp/pmcd.sock"}},
		// ports are atoi's, cut to an int; connecting takes 16 bits
		{"h:0", pmcd.Spec{Host: "h", Ports: []int{0}}},
		{"h:70000,0044321", pmcd.Spec{Host: "h", Ports: []int{70000, 44321}}},
		{"h:4294967296", pmcd.Spec{Host: "h", Ports: []int{0}}},
		{"h:99999999999999999999", pmcd.Spec{Host: "h", Ports: []int{-1}}},
		// proxies; an empty host takes the end character in
		{"h@p", pmcd.Spec{Host: "h", Ports: []int{44321}, Proxy: &pmcd.Proxy{Host: "p"}}},
		{"h:1,2@[::1]:3@q", pmcd.Spec{Host: "h", Ports: []int{1, 2}, Proxy: &pmcd.Proxy{Host: "::1", Ports: []int{3}}}},
		{"h@:1", pmcd.Spec{Host: "h", Ports: []int{44321}, Proxy: &pmcd.Proxy{Host: ":1"}}},
		{"h@", pmcd.Spec{Host: "h", Ports: []int{44321}, Proxy: &pmcd.Proxy{}}},
		{"[]:5", pmcd.Spec{Host: "]", Ports: []int{5}}},
		// attributes: known ones kept, the rest and what follows '/' not
		{"h?compress&container=a%20b+c&nosuch=1&user=x&user=y/z?secure",
			pmcd.Spec{Host: "h", Ports: []int{44321}, Attrs: map[string]*string{
				"compress": nil, "container": str("a b c"), "username": str("y")}}},
		{"h/any?compress", pmcd.Spec{Host: "h", Ports: []int{44321}}},
		{"pcps://h?secure=relaxed", pmcd.Spec{Protocol: "pcps", Host: "h", Ports: []int{44321},
			Attrs: map[string]*string{"secure": str("relaxed")}}},
	} {
		got, err := pmcd.ParseSpec(c.in)
		c.want.Raw = c.in
		if c.want.Attrs == nil {
			c.want.Attrs = map[string]*string{}
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %+v %v, want %+v", c.in, got, err, c.want)
		}
	}
	for in, want := range map[string][]int{"4321,44321": {4321, 44321}, "": {0}, "0x10, 010": {16, 8},
		"1,": {1, 0}, "x": {44321}, "1,-2": {44321}, " 5": {5}, "5 ": {44321},
		" ": {44321}, "1, ": {44321}, "4294967297": {1}, "0x": {44321}} {
		t.Setenv("PMCD_PORT", in)
		if sp, _ := pmcd.ParseSpec("h"); !reflect.DeepEqual(sp.Ports, want) {
			t.Errorf("PMCD_PORT=%q: %v, want %v", in, sp.Ports, want)
		}
	}
	for _, in := range []string{"", "pcp://", "?compress", "pcp:?x"} {
		if _, err := pmcd.ParseSpec(in); !errors.Is(err, pmapi.ErrNotHost) {
			t.Errorf("%q: %v, want ErrNotHost", in, err)
		}
	}
	for in, diag := range map[string]string{
		"h:":         "h:\n  ^ -- missing port\n",
		"h:x":        "h:x\n  ^ -- non-numeric port\n",
		"h:1,":       "h:1,\n    ^ -- missing port\n",
		"[::1":       "[::1\n    ^ -- missing closing ']' for host spec\n",
		"[::1]x":     "[::1]x\n     ^ -- extra characters after host spec\n",
		":44321":     ":44321\n^ -- unexpected terminal character\n",
		"unix:/x/y:": "unix:/x/y:\n         ^ -- unexpected terminal character\n",
		"a\tb:-":     "a\tb:-\n \t  ^ -- non-numeric port\n",
		"h?user=%zz": "(null)",
	} {
		var se *pmcd.SpecError
		if _, err := pmcd.ParseSpec(in); !errors.As(err, &se) || se.Diag != diag {
			t.Errorf("%q: %v, want SpecError with %q", in, err, diag)
		}
	}
}

// FuzzParseSpec parses arbitrary host specifications: never a panic, and
// an error is ErrNotHost or a *SpecError whose diagnostic ends a line.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"localhost", "h:44321,4321", "[fe80::1%eth0]:44321", "h@p:1", "pcp://h/",
		"unix:/x?", "local:", "h?compress&container=a%20b", "[", "h:", "@", "h@", "?x=%", "pcps://[::1]:1@[::2]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, err := pmcd.ParseSpec(s)
		var se *pmcd.SpecError
		switch {
		case err == nil, errors.Is(err, pmapi.ErrNotHost):
		case errors.As(err, &se):
			if se.Diag != "(null)" && !strings.HasSuffix(se.Diag, "\n") {
				t.Errorf("%q: diagnostic %q", s, se.Diag)
			}
		default:
			t.Errorf("%q: %v", s, err)
		}
	})
}
