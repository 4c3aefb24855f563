package pmcdtest

import (
	"errors"
	"net"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/gopcp/pmie/internal/pdu"
	"github.com/gopcp/pmie/pmapi"
)

// Fault rewrites the reply to a request before the stand-in sends it;
// reqType is the request's PDU type (0x7000 + n, as in PCP) and reply its
// encoded answer. It returns what to send instead: nil sends nothing (the
// client times out); closing true closes the connection after sending.
type Fault func(reqType uint32, reply []byte) (out []byte, closing bool)

// DefaultFeatures is what pmcd 6.0.3 offers a client by default: PDU_FLAG
// DESCS, LABELS and HIGHRES.
const DefaultFeatures = uint16(pdu.FeatureDescs | pdu.FeatureLabels | pdu.FeatureHighRes)

// Server is a pmcd stand-in: it speaks the PCP protocol on a TCP port or a
// unix socket and serves a fixed Namespace whose values tests can change.
// It can be stopped and started again on the same address, delay its
// replies, refuse connections and corrupt replies.
type Server struct {
	network, addr string

	mu        sync.Mutex
	ns        Namespace
	tree      *tree
	latency   time.Duration
	fault     Fault
	status    pmapi.Errno
	features  uint16
	ln        net.Listener
	conns     map[net.Conn]struct{}
	accepted  int
	requests  int
	stop      chan struct{} // closed by Stop
	wg        sync.WaitGroup
	startTime time.Time
	dynamic   func(m *Metric, now time.Time) []pmapi.Value
}

// New returns a stand-in serving ns, not yet listening.
func New(ns Namespace) *Server {
	s := &Server{features: DefaultFeatures, conns: map[net.Conn]struct{}{}}
	s.ns = withPMCDMetrics(ns)
	s.tree = newTree(&s.ns)
	return s
}

// withPMCDMetrics adds pmcd.hostname and pmcd.timezone to ns, which
// clients ask for when they connect.
func withPMCDMetrics(ns Namespace) Namespace {
	ns.Metrics = slices.Clone(ns.Metrics)
	str := func(name string, item uint32, v string) Metric {
		return Metric{Name: name, Desc: pmapi.Desc{PMID: pmapi.NewPMID(2, 0, item), Type: pmapi.TypeString,
			InDom: pmapi.InDomNull, Sem: pmapi.SemDiscrete},
			Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.String(v)}}}
	}
	if ns.Hostname != "" {
		ns.Metrics = append(ns.Metrics, str("pmcd.hostname", 7, ns.Hostname))
	}
	if ns.Timezone != "" {
		ns.Metrics = append(ns.Metrics, str("pmcd.timezone", 5, ns.Timezone))
	}
	return ns
}

// Start listens on network ("tcp" or "unix") and address (for example
// "127.0.0.1:0" or a socket path) and serves in the background.
func (s *Server) Start(network, address string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln != nil {
		return errors.New("pmcdtest: already listening")
	}
	if network == "unix" {
		os.Remove(address)
	}
	ln, err := net.Listen(network, address)
	if err != nil {
		return err
	}
	s.network, s.addr = network, ln.Addr().String()
	s.ln = ln
	s.stop = make(chan struct{})
	s.wg.Add(1)
	go s.acceptLoop(ln, s.stop)
	return nil
}

// Restart listens again on the address of the last Start, after Stop.
func (s *Server) Restart() error {
	s.mu.Lock()
	network, addr := s.network, s.addr
	s.mu.Unlock()
	return s.Start(network, addr)
}

// Stop closes the listener and every connection, as a pmcd that exits,
// and waits until all its goroutines have ended.
func (s *Server) Stop() {
	s.mu.Lock()
	if s.ln == nil {
		s.mu.Unlock()
		return
	}
	s.ln.Close()
	s.ln = nil
	close(s.stop)
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	if s.network == "unix" {
		os.Remove(s.addr)
	}
}

// Spec is the host specification that reaches the stand-in:
// "127.0.0.1:PORT" or "unix:/PATH".
func (s *Server) Spec() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.network == "unix" {
		return "unix:" + s.addr
	}
	return s.addr
}

// SetLatency delays every reply by d.
func (s *Server) SetLatency(d time.Duration) {
	s.mu.Lock()
	s.latency = d
	s.mu.Unlock()
}

// SetFault installs f (nil removes it).
func (s *Server) SetFault(f Fault) {
	s.mu.Lock()
	s.fault = f
	s.mu.Unlock()
}

// SetHandshake sets what new connections are told: status (0, or why
// they are refused, such as pmapi.ErrPermission) and the PDU_FLAG_*
// features on offer.
func (s *Server) SetHandshake(status pmapi.Errno, features uint16) {
	s.mu.Lock()
	s.status, s.features = status, features
	s.mu.Unlock()
}

// SetValues replaces the values of the metric called name.
func (s *Server) SetValues(name string, values []pmapi.Value) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := s.tree.find(name); n != nil && n.leaf != nil {
		n.leaf.Values = slices.Clone(values)
		n.leaf.Err = 0
	}
}

// SetDynamic has fetches answer with f's values for each metric, at the
// time of the fetch, instead of the metric's Values (nil undoes it).
func (s *Server) SetDynamic(f func(m *Metric, now time.Time) []pmapi.Value) {
	s.mu.Lock()
	s.dynamic = f
	s.mu.Unlock()
}

// SetError makes fetches of the metric called name fail with code.
func (s *Server) SetError(name string, code pmapi.Errno) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := s.tree.find(name); n != nil && n.leaf != nil {
		n.leaf.Err = code
	}
}

// Stats counts connections accepted and requests answered so far.
func (s *Server) Stats() (accepted, requests int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.accepted, s.requests
}

func (s *Server) acceptLoop(ln net.Listener, stop chan struct{}) {
	defer s.wg.Done()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		select {
		case <-stop:
			s.mu.Unlock()
			c.Close()
			return
		default:
		}
		s.conns[c] = struct{}{}
		s.accepted++
		s.wg.Add(1)
		s.mu.Unlock()
		go s.serve(c, stop)
	}
}

// session is one client connection's state.
type session struct {
	s    *Server
	c    net.Conn
	stop chan struct{}
	prof *pmapi.Profile
	buf  []byte
}

func (s *Server) serve(c net.Conn, stop chan struct{}) {
	defer s.wg.Done()
	defer func() {
		c.Close()
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
	}()
	s.mu.Lock()
	status, features := s.status, s.features
	s.mu.Unlock()
	ch := pdu.Challenge{Version: pdu.Version, Licensed: 1, Features: pdu.Features(features)}
	if _, err := c.Write(pdu.EncodeHandshake(int32(status), ch)); err != nil || status != 0 {
		return
	}
	ss := &session{s: s, c: c, stop: stop, prof: &pmapi.Profile{}}
	for {
		p, err := pdu.Read(c, ss.buf, 64<<10)
		ss.buf = p
		if err != nil {
			return
		}
		h, _ := pdu.ParseHeader(p)
		reply := ss.handle(h.Type, p)
		if reply == nil {
			continue // no answer expected
		}
		if !ss.send(h.Type, reply) {
			return
		}
	}
}

// send delays, applies the fault, and writes reply. It reports whether
// the connection should stay open.
func (ss *session) send(req pdu.Type, reply []byte) bool {
	s := ss.s
	s.mu.Lock()
	latency, fault := s.latency, s.fault
	s.requests++
	s.mu.Unlock()
	if latency > 0 {
		t := time.NewTimer(latency)
		select {
		case <-t.C:
		case <-ss.stop:
			t.Stop()
			return false
		}
	}
	closing := false
	if fault != nil {
		reply, closing = fault(uint32(req), reply)
	}
	if reply != nil {
		if _, err := ss.c.Write(reply); err != nil {
			return false
		}
	}
	return !closing
}
