package pmcd_test

import (
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"testing"

	"github.com/gopcp/pmie/internal/pmcdtest"
	"github.com/gopcp/pmie/pmapi/pmcd"
)

// TestSIGPIPEIgnored checks that connecting to a pmcd has SIGPIPE
// ignored, as libpcp has it, so that output to a closed pipe fails
// rather than ending the process. It runs in a process of its own, where
// no pmcd was connected before.
func TestSIGPIPEIgnored(t *testing.T) {
	if os.Getenv("PMCD_SIGPIPE_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSIGPIPEIgnored$", "-test.count=1")
		cmd.Env = append(os.Environ(), "PMCD_SIGPIPE_CHILD=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	s := pmcdtest.New(pmcdtest.Sample("sigpipe"))
	if err := s.Start("tcp", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	if signal.Ignored(syscall.SIGPIPE) {
		t.Fatal("SIGPIPE ignored before any pmcd was connected")
	}
	dial(t, s.Spec(), pmcd.Config{})
	if !signal.Ignored(syscall.SIGPIPE) {
		t.Error("SIGPIPE not ignored once a pmcd is connected")
	}
}
