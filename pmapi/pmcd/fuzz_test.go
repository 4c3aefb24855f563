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
// usable: never panic, never hang past its timeout.
func FuzzReply(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/golden/pmcd/*.pdu")
	for i, name := range files {
		if p, err := os.ReadFile(name); err == nil {
			f.Add(uint8(i), p)
			f.Add(uint8(i), p[:len(p)/2]) // cut short
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
		// The stand-in closes the connection after the reply, so that a
		// reply cut short meets the end of the stream at once: were it
		// kept open, the Context would wait out its timeout for the rest,
		// and Go's shrinking of new inputs, which cuts them short,
		// would spend minutes doing that.
		s.SetFault(func(uint32, []byte) ([]byte, bool) { return reply, true })
		err = requests[int(op)%len(requests)](x)
		if err != nil && pmapi.Code(err) == pmapi.ErrGeneric {
			t.Errorf("error without a PCP code: %v", err)
		}
	})
}
