package rules

import (
	"fmt"
	"syscall"
	"testing"

	"github.com/gopcp/pmie/pmapi"
)

// TestUnreachableWords checks pmie's words for a host never reached, by
// the PCP code of the error (wrapped as a source's errors are).
func TestUnreachableWords(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("pmcd h: connect: %w", pmapi.Errno(-int32(syscall.ECONNREFUSED))), "does not respond"},
		{syscall.ECONNREFUSED, "does not respond"},
		{fmt.Errorf("x: %w", pmapi.ErrPermission), "does not permit delivery of metrics to the local host"},
		{pmapi.ErrConnLimit, "has exceeded its connection limit"},
		{pmapi.ErrTimeout, "is unreachable"},
	} {
		var said []string
		h := NewHosts(func(_ Level, msg string) { said = append(said, msg) }, false)
		h.Unreachable("h:1", c.err)
		want := []string{"Cannot connect to pmcd h:1", "pmie: warning - pmcd via h:1 " + c.want}
		if fmt.Sprint(said) != fmt.Sprint(want) {
			t.Errorf("%v: said %q, want %q", c.err, said, want)
		}
	}
}
