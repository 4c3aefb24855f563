package pmcd_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/pmcdtest"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/pmcd"
)

// requests are the Context's requests the fuzz target makes, by number.
var requests = []func(x *pmcd.Context) error{
	func(x *pmcd.Context) error { _, err := x.LookupName("kernel.all.load"); return err },
	func(x *pmcd.Context) error { _, err := x.NameAll(pmapi.NewPMID(60, 2, 0)); return err },
	func(x *pmcd.Context) error { _, err := x.Children("kernel.all"); return err },
	func(x *pmcd.Context) error { _, err := x.TraversePMNS(""); return err },
	func(x *pmcd.Context) error { _, err := x.LookupDesc(pmapi.NewPMID(60, 2, 0)); return err },
	func(x *pmcd.Context) error {
		_, err := x.LookupDescs([]pmapi.PMID{pmapi.NewPMID(60, 2, 0), pmapi.NewPMID(60, 0, 32)})
		return err
	},
	func(x *pmcd.Context) error { _, err := x.InDom(pmapi.NewInDom(60, 2)); return err },
	func(x *pmcd.Context) error {
		_, err := x.Text(uint32(pmapi.NewPMID(60, 2, 0)), pmapi.TextPMID|pmapi.TextHelp)
		return err
	},
	func(x *pmcd.Context) error {
		_, err := x.Labels(pmapi.LabelInstances, uint32(pmapi.NewInDom(60, 2)))
		return err
	},
	func(x *pmcd.Context) error { _, err := x.Labels(pmapi.LabelContext, 0); return err },
	func(x *pmcd.Context) error {
		var r pmapi.Result
		return x.Fetch([]pmapi.PMID{pmapi.NewPMID(60, 2, 0), pmapi.NewPMID(60, 0, 32), pmapi.NewPMID(60, 12, 0)}, &r)
	},
}

// FuzzReply has the stand-in answer one request with arbitrary bytes. The
// Context must return an error with a PCP code, or a result, and stay
// usable: never panic, never hang past its timeout. Inputs that time out
// are slow (the corpus' inputs with op < 128), and Go shrinks each new
// input by running it many times, so run it with a small
// -fuzzminimizetime (for example 10x).
func FuzzReply(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/golden/pmcd/*.pdu")
	for i, name := range files {
		if p, err := os.ReadFile(name); err == nil {
			f.Add(uint8(i), p)
			f.Add(uint8(i)|128, p[:len(p)/2]) // cut short, then closed
		}
	}
	s := pmcdtest.New(pmcdtest.Sample("fuzz"))
	if err := s.Start("tcp", "127.0.0.1:0"); err != nil {
		f.Fatal(err)
	}
	defer s.Stop()
	x, err := pmcd.Dial(s.Spec(), pmcd.Config{Timeout: 100 * time.Millisecond, Backoff: []time.Duration{time.Nanosecond}})
	if err != nil {
		f.Fatal(err)
	}
	defer x.Close()
	f.Fuzz(func(t *testing.T, op uint8, reply []byte) {
		s.SetFault(nil)
		// A reply may leave bytes behind that upset the next request:
		// start each input on a fresh connection.
		var err error
		for range 5 { // a loaded machine may miss the short timeout
			if err = x.Reconnect(); err == nil {
				break
			}
		}
		if err != nil {
			t.Fatalf("reconnecting: %v", err)
		}
		// With op's high bit set the stand-in closes the connection after
		// the reply, so that a short reply meets the end of the stream
		// at once; else it keeps it open and the Context times out
		// waiting for the rest (100 ms: such inputs are slow).
		closing := op >= 128
		s.SetFault(func(uint32, []byte) ([]byte, bool) { return reply, closing })
		err = requests[int(op)%len(requests)](x)
		if err != nil && pmapi.Code(err) == pmapi.ErrGeneric {
			t.Errorf("error without a PCP code: %v", err)
		}
	})
}
