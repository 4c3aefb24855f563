package pmcd_test

import (
	"bufio"
	"errors"
	"io"
	"net"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/pmcdtest"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/pmcd"
)

func dial(t *testing.T, spec string, cfg pmcd.Config) *pmcd.Context {
	t.Helper()
	x, err := pmcd.Dial(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

func lookup(t *testing.T, x pmapi.Context, name string) pmapi.PMID {
	t.Helper()
	id, err := x.LookupName(name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return id
}

// fetchOne fetches one metric and returns its values by instance.
func fetchOne(t *testing.T, x pmapi.Context, name string) map[int32]pmapi.Atom {
	t.Helper()
	var r pmapi.Result
	if err := x.Fetch([]pmapi.PMID{lookup(t, x, name)}, &r); err != nil {
		t.Fatalf("fetch %s: %v", name, err)
	}
	if r.Sets[0].Err != nil {
		t.Fatalf("fetch %s: %v", name, r.Sets[0].Err)
	}
	out := map[int32]pmapi.Atom{}
	for _, v := range r.Sets[0].Values {
		out[v.Inst] = v.Atom
	}
	return out
}

// TestStandIn runs every request against the stand-in, over TCP and the
// unix socket, with and without pmcd's high resolution results.
func TestStandIn(t *testing.T) {
	ns := pmcdtest.Sample("standin")
	for _, tc := range []struct {
		name     string
		network  string
		features uint16
	}{
		{"tcp", "tcp", pmcdtest.DefaultFeatures},
		{"unix", "unix", pmcdtest.DefaultFeatures},
		{"classic", "tcp", 1<<9 | 1<<11}, // LABELS and DESCS, no HIGHRES
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := pmcdtest.New(ns)
			addr := "127.0.0.1:0"
			if tc.network == "unix" {
				addr = filepath.Join(t.TempDir(), "pmcd.socket")
			}
			if err := s.Start(tc.network, addr); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(s.Stop)
			s.SetHandshake(0, tc.features)
			checkSample(t, dial(t, s.Spec(), pmcd.Config{}), ns)
		})
	}
}

func checkSample(t *testing.T, x *pmcd.Context, ns pmcdtest.Namespace) {
	src := x.Source()
	if src.Kind != pmapi.SourceHost || src.Host != "standin" || src.TZ != "UTC" {
		t.Errorf("source %+v", src)
	}
	// Namespace: children with leaf status, traversal both ways, PMID to name.
	kids, err := x.Children("kernel.all")
	want := []pmapi.Child{{Name: "load", Leaf: true}, {Name: "nprocs", Leaf: true}, {Name: "pswitch", Leaf: true}}
	if err != nil || !reflect.DeepEqual(kids, want) {
		t.Errorf("children: %v %v", kids, err)
	}
	if kids, err := x.Children("kernel"); err != nil || kids[0] != (pmapi.Child{Name: "all"}) {
		t.Errorf("children of kernel: %v %v", kids, err)
	}
	if kids, err := x.Children("hinv.ncpu"); err != nil || len(kids) != 0 {
		t.Errorf("children of a leaf: %v %v", kids, err)
	}
	if _, err := x.Children("no.such"); err != pmapi.ErrName {
		t.Errorf("children of an unknown name: %v", err)
	}
	var walked []string
	if err := pmapi.Traverse(x, "", func(n string) error { walked = append(walked, n); return nil }); err != nil {
		t.Fatal(err)
	}
	all, err := x.TraversePMNS("")
	if err != nil || !slices.Equal(all, walked) || len(all) != len(ns.Metrics)+2 {
		t.Errorf("traverse: %v %v, walked %v", all, err, walked)
	}
	if _, err := x.LookupName("kernel.all"); err != pmapi.ErrNonLeaf {
		t.Errorf("lookup of a non-leaf: %v", err)
	}
	if _, err := x.LookupName("no.such"); err != pmapi.ErrName {
		t.Errorf("lookup of an unknown name: %v", err)
	}
	load := lookup(t, x, "kernel.all.load")
	if names, err := x.NameAll(load); err != nil || !slices.Equal(names, []string{"kernel.all.load"}) {
		t.Errorf("name all: %v %v", names, err)
	}
	if _, err := x.NameAll(pmapi.NewPMID(60, 999, 0)); err != pmapi.ErrPMID {
		t.Errorf("name all, unknown PMID: %v", err)
	}

	// Metadata.
	for _, m := range ns.Metrics {
		d, err := x.LookupDesc(lookup(t, x, m.Name))
		if err != nil || d != m.Desc {
			t.Errorf("%s: desc %+v %v", m.Name, d, err)
		}
	}
	if _, err := x.LookupDesc(pmapi.NewPMID(60, 999, 0)); err != pmapi.ErrPMID {
		t.Errorf("unknown desc: %v", err)
	}
	ds, err := x.LookupDescs([]pmapi.PMID{load, pmapi.NewPMID(60, 999, 0)})
	if err != nil || ds[0] != ns.Metrics[2].Desc || ds[1].PMID != pmapi.PMIDNull {
		t.Errorf("descs: %+v %v", ds, err)
	}
	indom := ns.Metrics[2].Desc.InDom
	if insts, err := x.InDom(indom); err != nil || !reflect.DeepEqual(insts, ns.InDoms[0].Instances) {
		t.Errorf("indom: %v %v", insts, err)
	}
	if n, err := x.LookupInDom(indom, "5 minute"); err != nil || n != 5 {
		t.Errorf("lookup indom: %d %v", n, err)
	}
	if s, err := x.NameInDom(indom, 15); err != nil || s != "15 minute" {
		t.Errorf("name indom: %q %v", s, err)
	}
	if _, err := x.NameInDom(indom, 99); err != pmapi.ErrInst {
		t.Errorf("name indom, unknown: %v", err)
	}
	if s, err := x.Text(uint32(load), pmapi.TextPMID|pmapi.TextHelp); err != nil || s != ns.Metrics[2].Help {
		t.Errorf("help: %q %v", s, err)
	}
	if s, err := x.Text(uint32(indom), pmapi.TextInDom|pmapi.TextOneLine); err != nil || s != ns.InDoms[0].OneLine {
		t.Errorf("indom text: %q %v", s, err)
	}
	// Help falls back to the one-line text, as in libpcp, unless direct.
	if s, err := x.Text(uint32(indom), pmapi.TextInDom|pmapi.TextHelp); err != nil || s != ns.InDoms[0].OneLine {
		t.Errorf("indom help: %q %v", s, err)
	}
	if s, err := x.Text(uint32(indom), pmapi.TextInDom|pmapi.TextHelp|pmcd.TextDirect); err != nil || s != "" {
		t.Errorf("indom help, direct: %q %v", s, err)
	}
	ncpu := lookup(t, x, "hinv.ncpu")
	if s, err := x.Text(uint32(ncpu), pmapi.TextPMID|pmapi.TextHelp); err != nil || s != ns.Metrics[0].OneLine {
		t.Errorf("help falling back: %q %v", s, err)
	}
	if _, err := x.Text(uint32(lookup(t, x, "hinv.physmem")), pmapi.TextPMID|pmapi.TextHelp); err != pmapi.ErrText {
		t.Errorf("no text: %v", err)
	}
	checkLabels(t, x, ns)
	checkValues(t, x, ns)
}

func checkLabels(t *testing.T, x *pmcd.Context, ns pmcdtest.Namespace) {
	read := lookup(t, x, "disk.dev.read")
	disks := ns.Metrics[6].Desc.InDom
	one := func(ls []pmapi.Label) []pmapi.LabelSet { return []pmapi.LabelSet{{Inst: pmapi.InNull, Labels: ls}} }
	for _, c := range []struct {
		level pmapi.LabelFlag
		id    uint32
		want  []pmapi.LabelSet
	}{
		{pmapi.LabelContext, 0, one(ns.ContextLabels)},
		{pmapi.LabelDomain, uint32(read), one(ns.DomainLabels[60])},
		{pmapi.LabelItem, uint32(read), one(ns.Metrics[6].Labels)},
		{pmapi.LabelCluster, uint32(read), nil},
		{pmapi.LabelInDom, uint32(disks), nil},
		{pmapi.LabelInstances, uint32(disks), []pmapi.LabelSet{{Inst: 0, Labels: ns.InDoms[1].InstLabels[0]}, {Inst: 1}}},
	} {
		sets, err := x.Labels(c.level, c.id)
		if err != nil || !reflect.DeepEqual(sets, c.want) {
			t.Errorf("labels %d: %+v %v, want %+v", c.level, sets, err, c.want)
		}
	}
	if _, err := x.Labels(pmapi.LabelItem, uint32(pmapi.NewPMID(60, 999, 0))); err != pmapi.ErrPMID {
		t.Errorf("labels of an unknown PMID: %v", err)
	}
}

func checkValues(t *testing.T, x *pmcd.Context, ns pmcdtest.Namespace) {
	for _, m := range ns.Metrics {
		if m.Err != 0 {
			continue
		}
		got := fetchOne(t, x, m.Name)
		if len(got) != len(m.Values) {
			t.Errorf("%s: %v", m.Name, got)
		}
		for _, v := range m.Values {
			if got[v.Inst] != v.Atom {
				t.Errorf("%s[%d]: got %+v, want %+v", m.Name, v.Inst, got[v.Inst], v.Atom)
			}
		}
	}
	var r pmapi.Result
	broken := lookup(t, x, "sample.broken")
	if err := x.Fetch([]pmapi.PMID{broken, pmapi.NewPMID(60, 999, 0), pmapi.NewPMID(400, 0, 0)}, &r); err != nil {
		t.Fatal(err)
	}
	if r.Sets[0].Err != pmapi.ErrAgain || r.Sets[1].Err != pmapi.ErrPMID || r.Sets[2].Err != pmapi.ErrNoAgent {
		t.Errorf("errors in a fetch: %+v", r.Sets)
	}
	if err := x.Fetch(nil, &r); err != pmapi.ErrTooSmall {
		t.Errorf("empty fetch: %v", err)
	}

	// Profiles: only the 5 minute load average, then all again.
	indom := ns.InDoms[0].InDom
	x.DelProfile(indom)
	x.AddProfile(indom, 5)
	if got := fetchOne(t, x, "kernel.all.load"); len(got) != 1 || got[5] != pmapi.F32(0.25) {
		t.Errorf("with profile: %v", got)
	}
	sets, err := x.Labels(pmapi.LabelInstances, uint32(indom))
	if err != pmapi.ErrNoLabels && (err != nil || len(sets) != 1 || sets[0].Inst != 5) {
		t.Errorf("instance labels with profile: %+v %v", sets, err)
	}
	x.AddProfile(pmapi.InDomNull)
	if got := fetchOne(t, x, "kernel.all.load"); len(got) != 3 {
		t.Errorf("profile reset: %v", got)
	}
}

// TestNoFeatures is a pmcd offering nothing optional: no labels, no
// multi-descriptor requests, no high resolution results.
func TestNoFeatures(t *testing.T) {
	ns := pmcdtest.Sample("old")
	s := pmcdtest.Start(t, ns)
	s.SetHandshake(0, 0)
	x := dial(t, s.Spec(), pmcd.Config{})
	if _, err := x.Labels(pmapi.LabelContext, 0); err != pmapi.ErrNoLabels {
		t.Errorf("labels: %v", err)
	}
	load := lookup(t, x, "kernel.all.load")
	ds, err := x.LookupDescs([]pmapi.PMID{load, pmapi.NewPMID(60, 999, 0)})
	if err != nil || ds[0] != ns.Metrics[2].Desc || ds[1].PMID != pmapi.PMIDNull {
		t.Errorf("descs: %+v %v", ds, err)
	}
	checkValues(t, x, ns)
}

func TestHandshakeRefusals(t *testing.T) {
	s := pmcdtest.Start(t, pmcdtest.Sample("h"))
	unix := pmcdtest.New(pmcdtest.Sample("h"))
	if err := unix.Start("unix", filepath.Join(t.TempDir(), "sock")); err != nil {
		t.Fatal(err)
	}
	defer unix.Stop()
	for _, c := range []struct {
		status   pmapi.Errno
		features uint16
		server   *pmcdtest.Server
		code     pmapi.Errno // 0: unsupported
		ok       bool
	}{
		{pmapi.ErrPermission, pmcdtest.DefaultFeatures, s, pmapi.ErrPermission, false},
		{pmapi.ErrConnLimit, pmcdtest.DefaultFeatures, s, pmapi.ErrConnLimit, false},
		{0, 1 << 3, s, 0, false},                       // credentials over TCP
		{0, 1 << 7, s, pmapi.ErrNeedClientCert, false}, // 127.0.0.1 is not "localhost"
		{0, 1 << 3, unix, 0, true},                     // credentials over the socket: fine
		{0, 1 << 7, unix, 0, true},                     // no certificate needed locally
	} {
		c.server.SetHandshake(c.status, c.features)
		x, err := pmcd.Dial(c.server.Spec(), pmcd.Config{})
		var ue *pmcd.UnsupportedError
		switch {
		case c.ok && err != nil:
			t.Errorf("%+v: %v", c, err)
		case c.ok:
			x.Close()
		case c.code != 0 && pmapi.Code(err) != c.code:
			t.Errorf("status %d: got %v", c.status, err)
		case c.code == 0 && !errors.As(err, &ue):
			t.Errorf("features %#x: got %v, want UnsupportedError", c.features, err)
		}
	}
}

func TestDialErrors(t *testing.T) {
	s := pmcdtest.Start(t, pmcdtest.Sample("h"))
	spec := s.Spec()
	s.Stop()
	_, err := pmcd.Dial(spec, pmcd.Config{})
	if code := pmapi.Code(err); code != pmapi.Errno(-111) {
		t.Errorf("refused: %v (%d), want ECONNREFUSED", err, code)
	}
	_, err = pmcd.Dial("unix:"+filepath.Join(t.TempDir(), "none"), pmcd.Config{})
	if code := pmapi.Code(err); code != pmapi.Errno(-2) {
		t.Errorf("no socket: %v (%d), want ENOENT", err, code)
	}
	if _, err := pmcd.Dial("nosuchhost.invalid", pmcd.Config{}); pmapi.Code(err) != pmapi.Errno(-113) {
		t.Errorf("unknown host: %v (%d), want EHOSTUNREACH", err, pmapi.Code(err))
	}
}

// TestWantedFeatures checks what the specification's attributes and
// protocol ask of pmcd, as libpcp checks them against the features pmcd
// offers: EOPNOTSUPP where pmcd lacks one (and always for compression),
// UnsupportedError for TLS and SASL that pmcd offers but we cannot do.
func TestWantedFeatures(t *testing.T) {
	s := pmcdtest.Start(t, pmcdtest.Sample("h"))
	const (
		secure    = 1 << 0
		auth      = 1 << 2
		container = 1 << 6
	)
	notSupported := pmapi.Errno(-95)
	for _, c := range []struct {
		spec     string
		features uint16
		code     pmapi.Errno // 0: connects; 1: UnsupportedError
	}{
		{"pcps://" + s.Spec(), pmcdtest.DefaultFeatures &^ secure, notSupported},
		{"pcps://" + s.Spec(), pmcdtest.DefaultFeatures | secure, 1},
		{"pcps://" + s.Spec() + "?secure", pmcdtest.DefaultFeatures &^ secure, 0},
		{"pcps://" + s.Spec() + "?secure=relaxed", pmcdtest.DefaultFeatures &^ secure, 0},
		{s.Spec() + "?compress", pmcdtest.DefaultFeatures, notSupported},
		{s.Spec() + "?username=me", pmcdtest.DefaultFeatures &^ auth, notSupported},
		{s.Spec() + "?username=me", pmcdtest.DefaultFeatures | auth, 1},
		{s.Spec() + "?container=c", pmcdtest.DefaultFeatures &^ container, notSupported},
		{s.Spec() + "?container", pmcdtest.DefaultFeatures | container, pmapi.Errno(-3)}, // ESRCH
		{s.Spec() + "?exclusive&secure&nosuch=1", pmcdtest.DefaultFeatures, 0},
	} {
		s.SetHandshake(0, c.features)
		x, err := pmcd.Dial(c.spec, pmcd.Config{})
		var ue *pmcd.UnsupportedError
		switch {
		case c.code == 0 && err != nil:
			t.Errorf("%s: %v", c.spec, err)
		case c.code == 0:
			x.Close()
		case c.code == 1 && !errors.As(err, &ue):
			t.Errorf("%s (features %#x): %v, want UnsupportedError", c.spec, c.features, err)
		case c.code == 1 && pmapi.Code(err) != notSupported:
			t.Errorf("%s: UnsupportedError's code is %v", c.spec, pmapi.Code(err))
		case c.code < 0 && pmapi.Code(err) != c.code:
			t.Errorf("%s (features %#x): %v, want %v", c.spec, c.features, err, c.code)
		}
	}
}

// TestProxy connects through a pmproxy stand-in, as "host:port@proxy"
// and $PMPROXY_HOST ask, and checks what it is told and what a proxy
// that is not pmproxy gets.
func TestProxy(t *testing.T) {
	s := pmcdtest.Start(t, pmcdtest.Sample("h"))
	host, port, _ := net.SplitHostPort(s.Spec())
	targets := make(chan string, 10)
	proxy := func(greeting string) string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ln.Close() })
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				go serveProxy(c, greeting, targets)
			}
		}()
		return ln.Addr().String()
	}
	good, bad := proxy("pmproxy-server 1\n"), proxy("pmproxy-server 2\n")
	x := dial(t, s.Spec()+"@"+good, pmcd.Config{})
	if got := <-targets; got != host+" "+port+"\n" {
		t.Errorf("proxy was asked for %q", got)
	}
	fetchOne(t, x, "hinv.ncpu")
	_, pport, _ := net.SplitHostPort(good)
	t.Setenv("PMPROXY_HOST", "127.0.0.1")
	t.Setenv("PMPROXY_PORT", pport)
	dial(t, s.Spec(), pmcd.Config{})
	if got := <-targets; got != host+" "+port+"\n" {
		t.Errorf("$PMPROXY_HOST: proxy was asked for %q", got)
	}
	if _, err := pmcd.Dial("unix:", pmcd.Config{}); pmapi.Code(err) != pmapi.Errno(-1) {
		t.Errorf("unix: with $PMPROXY_HOST: %v, want EPERM", err)
	}
	t.Setenv("PMPROXY_HOST", "")
	var warned []string
	_, err := pmcd.Dial(s.Spec()+"@"+bad, pmcd.Config{Warn: func(m string) { warned = append(warned, m) }})
	want := "__pmConnectPMCD: bad version string from pmproxy: \"pmproxy-server 2\"\n"
	if pmapi.Code(err) != pmapi.ErrIPC || len(warned) != 1 || warned[0] != want {
		t.Errorf("not pmproxy: %v, warned %q", err, warned)
	}
	if _, err := pmcd.Dial(s.Spec()+"@", pmcd.Config{}); pmapi.Code(err) != pmapi.Errno(-113) {
		t.Errorf("empty proxy name: %v, want EHOSTUNREACH", err)
	}
}

// serveProxy is a pmproxy stand-in's connection: the version exchange
// with greeting, then the pmcd it is asked for, spliced to the client.
func serveProxy(c net.Conn, greeting string, targets chan<- string) {
	defer c.Close()
	r := bufio.NewReader(c)
	if l, err := r.ReadString('\n'); err != nil || l != "pmproxy-client 1\n" {
		return
	}
	io.WriteString(c, greeting)
	l, err := r.ReadString('\n')
	if err != nil {
		return
	}
	targets <- l
	f := strings.Fields(l)
	if len(f) != 2 {
		return
	}
	u, err := net.Dial("tcp", net.JoinHostPort(f[0], f[1]))
	if err != nil {
		return
	}
	defer u.Close()
	go io.Copy(u, r)
	io.Copy(c, u)
}

// LookupNames looks many names up in one request, PMIDNull for those
// pmcd does not know; each found is what LookupName finds.
func TestLookupNames(t *testing.T) {
	s := pmcdtest.Start(t, pmcdtest.Sample("names"))
	x := dial(t, s.Spec(), pmcd.Config{})
	names := []string{"hinv.ncpu", "no.such.metric", "kernel.all.load", "disk", "sample.double"}
	_, before := s.Stats()
	ids, err := x.LookupNames(names)
	if _, after := s.Stats(); err != nil || after != before+1 {
		t.Fatalf("LookupNames: %v, %d requests", err, after-before)
	}
	for i, name := range names {
		want, err := x.LookupName(name)
		if err != nil {
			want = pmapi.PMIDNull
		}
		if ids[i] != want {
			t.Errorf("%s: %v, LookupName gives %v", name, ids[i], want)
		}
	}
	if _, err := x.LookupNames(nil); err == nil {
		t.Error("no names looked up without an error")
	}
}
