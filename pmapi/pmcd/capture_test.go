package pmcd

import (
	"flag"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gopcp/pmie/internal/pdu"
	"github.com/gopcp/pmie/pmapi"
)

var capture = flag.Bool("capture", false, "record real pmcd's replies into "+goldenDir)

// goldenDir holds PDUs recorded from real pmcd 6.0.3.
const goldenDir = "../../testdata/golden/pmcd"

// TestCapture records real pmcd's reply PDUs, byte for byte, as seeds and
// expectations for the decoder tests. It runs only with -capture (see
// testdata/golden/pmcd/README).
func TestCapture(t *testing.T) {
	if !*capture {
		t.Skip("run with -capture to record real pmcd's PDUs")
	}
	sp, _ := ParseSpec("localhost")
	cfg := Config{}
	c, err := dialConn(sp, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	save := func(name string, p []byte) {
		if err := os.WriteFile(filepath.Join(goldenDir, name+".pdu"), p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	call := func(name string, req []byte, want pdu.Type) {
		p, _, err := c.call(req, want)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		save(name, p)
	}
	// the handshake: reconnect raw to keep its bytes
	raw, err := dialRaw(sp, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	save("handshake", raw)

	load := pmapi.NewPMID(60, 2, 0)
	ids := []pmapi.PMID{load, pmapi.NewPMID(60, 0, 32), pmapi.NewPMID(60, 12, 0), pmapi.NewPMID(60, 1, 9),
		pmapi.NewPMID(60, 0, 20), pmapi.NewPMID(60, 99, 99)}
	call("ids", pdu.EncodeNames([]string{"kernel.all.load", "hinv.ncpu", "no.such.metric"}, nil), pdu.PMNSIDs)
	call("children", pdu.EncodeNameReq(pdu.PMNSChild, "kernel.all", 1), pdu.PMNSNames)
	call("traverse", pdu.EncodeNameReq(pdu.PMNSTraverse, "kernel.all.cpu", 0), pdu.PMNSNames)
	call("nameall", pdu.EncodeIDs(pdu.PMNSIDs, 0, []pmapi.PMID{load}), pdu.PMNSNames)
	call("desc", pdu.EncodeDescReq(load), pdu.Desc)
	call("descs", pdu.EncodeIDs(pdu.DescIDs, -1, ids), pdu.Descs)
	call("instance", pdu.EncodeInstanceReq(pdu.InstanceQuery{InDom: pmapi.NewInDom(60, 2), Inst: pmapi.InNull}), pdu.Instance)
	call("text", pdu.EncodeTextReq(uint32(load), pmapi.TextPMID|pmapi.TextOneLine), pdu.Text)
	call("labels-context", pdu.EncodeLabelReq(0, pmapi.LabelContext), pdu.Label)
	call("labels-domain", pdu.EncodeLabelReq(60, pmapi.LabelDomain), pdu.Label)
	if err := c.send(pdu.EncodeProfile(ctxSlot, &pmapi.Profile{})); err != nil {
		t.Fatal(err)
	}
	call("labels-instances", pdu.EncodeLabelReq(uint32(pmapi.NewInDom(60, 2)), pmapi.LabelInstances), pdu.Label)
	call("result", pdu.EncodeFetch(pdu.Fetch, ctxSlot, ids), pdu.Result)
	call("highres-result", pdu.EncodeFetch(pdu.HighResFetch, ctxSlot, ids), pdu.HighResResult)
	_, _, err = c.call(pdu.EncodeDescReq(pmapi.NewPMID(60, 99, 99)), pdu.Desc)
	if _, ok := err.(*replyError); !ok {
		t.Fatalf("error reply: %v", err)
	}
	save("error", c.buf)
}

// dialRaw connects and returns pmcd's first PDU.
func dialRaw(sp Spec, cfg *Config) ([]byte, error) {
	nc, err := net.DialTimeout("tcp", net.JoinHostPort(sp.Host, strconv.Itoa(sp.Ports[0])), cfg.connectTimeout())
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	return pdu.Read(nc, nil, 0)
}
