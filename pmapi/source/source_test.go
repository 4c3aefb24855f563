package source

import (
	"runtime"
	"syscall"
	"testing"

	"github.com/gopcp/pmie/pmapi"
)

// TestOpen opens each kind of source, and checks that a source that
// cannot be opened gives a nil Context (not a typed nil) and its PCP code.
func TestOpen(t *testing.T) {
	var o Opener
	c, err := o.Open(Archive("../../testdata/archives/pmie/alpha"))
	if err != nil {
		t.Fatal(err)
	}
	if k := c.Source().Kind; k != pmapi.SourceArchive {
		t.Errorf("archive: kind %v", k)
	}
	c.Close()
	if runtime.GOOS == "linux" {
		c, err := o.Open(Embedded())
		if err != nil {
			t.Fatal(err)
		}
		if k := c.Source().Kind; k != pmapi.SourceLocal {
			t.Errorf("embedded: kind %v", k)
		}
		c.Close()
	}
	for _, s := range []Spec{Archive("no/such/archive"), Host("127.0.0.1:1")} {
		c, err := o.Open(s)
		if err == nil || c != nil {
			t.Errorf("%s: %v, %v; want no context and an error", s, c, err)
		}
	}
	if _, err := o.Open(Host("127.0.0.1:1")); pmapi.Code(err) != pmapi.Errno(-int32(syscall.ECONNREFUSED)) {
		t.Errorf("closed port: %v, want connection refused", err)
	}
}

func TestSpecString(t *testing.T) {
	for s, want := range map[Spec]string{Archive("a/b"): "a/b", Host("h:1"): "h:1", Embedded(): "local context"} {
		if got := s.String(); got != want {
			t.Errorf("%+v: %q, want %q", s, got, want)
		}
	}
}
