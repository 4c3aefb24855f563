package pdu

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/gopcp/pmie/pmapi"
)

// decoders are every decoder, by the PDU type it accepts.
var decoders = map[Type]func(p []byte) error{
	Error:    func(p []byte) error { _, err := DecodeError(p); return err },
	Creds:    func(p []byte) error { _, err := DecodeCreds(p); return err },
	Profile:  func(p []byte) error { _, _, err := DecodeProfile(p); return err },
	Fetch:    func(p []byte) error { _, _, _, err := DecodeFetch(p); return err },
	DescReq:  func(p []byte) error { _, err := DecodeDescReq(p); return err },
	Desc:     func(p []byte) error { _, err := DecodeDesc(p); return err },
	Descs:    func(p []byte) error { _, err := DecodeDescs(p); return err },
	DescIDs:  func(p []byte) error { _, _, err := DecodeIDs(p, DescIDs); return err },
	PMNSIDs:  func(p []byte) error { _, _, err := DecodeIDs(p, PMNSIDs); return err },
	Instance: func(p []byte) error { _, _, err := DecodeInstances(p); return err },
	InstanceReq: func(p []byte) error {
		_, err := DecodeInstanceReq(p)
		return err
	},
	TextReq:      func(p []byte) error { _, _, err := DecodeTextReq(p); return err },
	Text:         func(p []byte) error { _, _, err := DecodeText(p); return err },
	PMNSNames:    func(p []byte) error { _, _, err := DecodeNames(p); return err },
	PMNSChild:    func(p []byte) error { _, _, _, err := DecodeNameReq(p); return err },
	PMNSTraverse: func(p []byte) error { _, _, _, err := DecodeNameReq(p); return err },
	LabelReq:     func(p []byte) error { _, _, err := DecodeLabelReq(p); return err },
	Label:        func(p []byte) error { _, _, _, err := DecodeLabels(p); return err },
	HighResFetch: func(p []byte) error { _, _, _, err := DecodeFetch(p); return err },
	Result: func(p []byte) error {
		var r pmapi.Result
		return DecodeResult(p, &r, func(pmapi.PMID) pmapi.Type { return pmapi.TypeFloat })
	},
	HighResResult: func(p []byte) error {
		var r pmapi.Result
		return DecodeResult(p, &r, nil)
	},
}

// FuzzDecode feeds arbitrary bytes to Read and, with the header's type
// and length patched to fit, to every decoder. None may panic; any error
// must carry a PCP code (IPC or TooBig).
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.pdu"))
	for _, name := range files {
		p, err := os.ReadFile(name)
		if err == nil {
			f.Add(p)
		}
	}
	f.Add(EncodeResult(HighResResult, sampleResult()))
	f.Add(EncodeResult(Result, sampleResult()))
	f.Add(EncodeProfile(1, &pmapi.Profile{InDoms: []pmapi.InDomProfile{{InDom: 1, Exclude: true, Insts: []int32{1, 2}}}}))
	f.Add(EncodeLabels(1, pmapi.LabelInstances, []pmapi.LabelSet{{Inst: 1, Labels: []pmapi.Label{{Name: "a", Value: `"b"`}}}}))
	f.Add(EncodeCreds(1, Version, 0))
	f.Fuzz(func(t *testing.T, data []byte) {
		if p, err := Read(bytes.NewReader(data), nil, 1<<16); err == nil {
			h, _ := ParseHeader(p)
			if dec := decoders[h.Type]; dec != nil {
				check(t, dec(p))
			}
		}
		if len(data) < HeaderLen {
			return
		}
		p := append([]byte(nil), data...)
		binary.BigEndian.PutUint32(p, uint32(len(p)))
		for typ, dec := range decoders {
			binary.BigEndian.PutUint32(p[4:], uint32(typ))
			check(t, dec(p))
		}
		_, _, _ = DecodeHandshake(p)
	})
}

func check(t *testing.T, err error) {
	if err == nil {
		return
	}
	if c := pmapi.Code(err); c != pmapi.ErrIPC && c != pmapi.ErrTooBig {
		t.Fatalf("error without a PCP code: %v (%d)", err, c)
	}
}

// TestDecodeBoundsAllocation is the regression test for the fuzz crasher
// testdata/fuzz/FuzzDecode/21bd524e6d315ac4: a profile claiming 1.8e9
// instance domains made the decoder reserve gigabytes before failing.
// Decoding any PDU must allocate in proportion to its size.
func TestDecodeBoundsAllocation(t *testing.T) {
	p := golden(t, "highres-result")
	binary.BigEndian.PutUint32(p[4:], uint32(Profile))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for typ, dec := range decoders {
		q := append([]byte(nil), p...)
		binary.BigEndian.PutUint32(q[4:], uint32(typ))
		check(t, dec(q))
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("decoding a %d-byte PDU every way allocated %d bytes", len(p), n)
	}
}
