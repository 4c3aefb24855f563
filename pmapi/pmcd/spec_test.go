package pmcd_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gopcp/pmie/pmapi/pmcd"
)

func TestParseSpec(t *testing.T) {
	t.Setenv("PMCD_PORT", "")
	t.Setenv("PMCD_SOCKET", "/tmp/pmcd.sock")
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
		{"pcp://nas3.acme.com", pmcd.Spec{Host: "nas3.acme.com", Ports: []int{44321}}},
		{"pcp://nas3:1234/", pmcd.Spec{Host: "nas3", Ports: []int{1234}}},
		{"unix:", pmcd.Spec{Socket: "/tmp/pmcd.sock"}},
		{"local:", pmcd.Spec{Socket: "/tmp/pmcd.sock", Fallback: true}},
		{"", pmcd.Spec{Socket: "/tmp/pmcd.sock", Fallback: true}},
		{"unix:/run/x.sock", pmcd.Spec{Socket: "/run/x.sock"}},
		{"local://run/x.sock", pmcd.Spec{Socket: "/run/x.sock", Fallback: true}},
		{"unix:relative.sock", pmcd.Spec{Socket: "/relative.sock"}},
	} {
		got, err := pmcd.ParseSpec(c.in)
		c.want.Raw = c.in
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %+v %v, want %+v", c.in, got, err, c.want)
		}
	}
	t.Setenv("PMCD_PORT", "4321,44321")
	if sp, _ := pmcd.ParseSpec("h"); !reflect.DeepEqual(sp.Ports, []int{4321, 44321}) {
		t.Errorf("PMCD_PORT: %v", sp.Ports)
	}
	for _, in := range []string{"pcps://h", "h@proxy", "h:1@proxy:2", "h?container=x", "local:?user=me", "pcps://h?method=plain"} {
		var ue *pmcd.UnsupportedError
		if _, err := pmcd.ParseSpec(in); !errors.As(err, &ue) {
			t.Errorf("%q: %v, want UnsupportedError", in, err)
		}
	}
	for _, in := range []string{"h:", "h:x", "h:70000", "[::1", "[::1]x", ":44321", "pcp://"} {
		var se *pmcd.SpecError
		if _, err := pmcd.ParseSpec(in); !errors.As(err, &se) {
			t.Errorf("%q: %v, want SpecError", in, err)
		}
	}
}
