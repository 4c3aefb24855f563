// Command pmie-notify reads pmie's daemon configuration and routes and
// sends the alerts pmie hands it.
//
//	pmie-notify -C [-stdin] FILE
//	pmie-notify [-replay] [-listen HOST:PORT] [FILE]
//	pmie-notify --help
//
// With -C it reads and checks the daemon configuration FILE (with
// -stdin, its contents come on standard input: what pmie read) and
// prints the settings pmie needs as JSON (package daemon/wire); problems
// go to standard error, one a line, with their places, and the status is
// 1.
//
// Otherwise pmie (pmie --yaml-config FILE) runs it and supervises it:
// pmie writes messages to its standard input, one JSON object a line
// (evaluations of rules with actions and the alerts they fired, rules
// removed, a new configuration at a reload, pings), and it answers on its
// standard output (receivers' counts, pongs). It routes the alerts as the
// configuration says and keeps Alertmanager told of the rules' alerts
// (package notify). At the end of its input it sends what is still
// queued, within the file's shutdown_timeout, and exits. Its messages go
// to standard error, one a line, which pmie logs as its own (as errors,
// or as information when they start "info: ").
//
// With -listen (pmie's --web.listen-address), or the file's
// http.listen_address, it also serves pmie's HTTP endpoint (package
// daemon/web), asking pmie for the state it shows.
//
// It leaves SIGINT, SIGHUP and SIGTERM to pmie: the end of its input,
// when pmie exits for whatever reason, is what stops it, so no queued
// alert is lost to a signal meant for pmie.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gopcp/pmie/daemon/config"
	"github.com/gopcp/pmie/daemon/web"
	"github.com/gopcp/pmie/daemon/wire"
	"github.com/gopcp/pmie/notify"
)

const prog = "pmie-notify"

func main() {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "%s: internal error: %v\n", prog, r)
			os.Exit(2)
		}
	}()
	signal.Ignore(syscall.SIGINT, syscall.SIGHUP, syscall.SIGTERM)
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// usage is pmie-notify's usage line.
const usage = "Usage: " + prog + " -C [-stdin] FILE\n       " + prog + " [-replay] [-listen HOST:PORT] [FILE]\n"

// help is what -? (or --help, -h) prints after the usage line.
const help = `Reads pmie's daemon configuration FILE, and routes and sends the alerts
pmie hands it (one JSON line each on standard input), as FILE says. pmie
--yaml-config FILE starts it; there is no need to run it by hand.

  -C                 check FILE, print the settings pmie needs, and exit
  -stdin             with -C, read FILE's contents from standard input
  -replay            evaluation follows archives' clock
  -listen HOST:PORT  serve pmie's HTTP endpoint there
`

func run(args []string, in io.Reader, out, stderr io.Writer) int {
	check, stdin, replay, listen := false, false, false, ""
	bad := false
options:
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		switch args[0] {
		case "--":
			args = args[1:]
			break options
		case "-?", "-h", "--help":
			fmt.Fprintf(stderr, "%s\n%s", usage, help)
			return 0
		case "-C":
			check = true
		case "-stdin":
			stdin = true
		case "-replay":
			replay = true
		case "-listen":
			if len(args) < 2 {
				bad = true
				break options
			}
			listen, args = args[1], args[1:]
		default:
			fmt.Fprintf(stderr, "%s: unknown option %s\n", prog, args[0])
			bad = true
			break options
		}
		args = args[1:]
	}
	if bad || len(args) > 1 || (len(args) == 0 && (check || listen == "")) || (stdin && !check) {
		io.WriteString(stderr, usage)
		return 1
	}
	var cfg *config.Config
	var err error
	switch {
	case len(args) == 0:
		cfg = &config.Config{}
	case stdin:
		file := args[0]
		var data []byte
		if data, err = io.ReadAll(in); err == nil {
			cfg, err = config.Parse(file, data)
		}
	default:
		cfg, err = config.Load(args[0])
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s\n", err)
		return 1
	}
	if check {
		b, _ := json.Marshal(cfg.Settings)
		fmt.Fprintf(out, "%s\n", b)
		return 0
	}
	return serve(cfg, replay, listen, in, out, stderr)
}

// serve runs alerting on cfg, and the HTTP endpoint if listen or cfg
// says, driven by pmie's messages on in, until their end.
func serve(cfg *config.Config, replay bool, listen string, in io.Reader, out, stderr io.Writer) int {
	logs := make(chan string, 64)
	logged := make(chan struct{})
	go func() {
		// one writer, so that lines from the receivers never interleave
		for msg := range logs {
			fmt.Fprintln(stderr, msg)
		}
		close(logged)
	}()
	log := func(msg string) { logs <- msg }
	s := &session{cfg: cfg, out: json.NewEncoder(out), log: log, listen: listen, waits: map[int64]chan *wire.Message{}}
	alerting := cfg.Alerting
	if alerting == nil {
		alerting = &notify.Config{File: cfg.File, ShutdownTimeout: notify.DefaultShutdownTimeout, Location: time.Local}
	}
	s.n = notify.New(alerting, notify.Options{Log: log, Info: func(msg string) { log(infoPrefix + msg) }, Replay: replay})
	s.serveHTTP()
	stop := s.reportStats()
	readErr := s.read(in)
	stop()
	if s.web != nil {
		s.web.Close(context.Background())
	}
	status := 0
	if err := s.n.Close(context.Background()); err != nil {
		log(err.Error())
		status = 1
	}
	s.sendStats()
	if readErr != nil {
		log(fmt.Sprintf("alerting: reading pmie's messages: %v", readErr))
		status = 1
	}
	close(logs)
	<-logged
	return status
}

// infoPrefix starts a line pmie logs as information, not as an error
// (cmd/pmie's helper.relay).
const infoPrefix = "info: "

// session is pmie-notify serving pmie.
type session struct {
	cfg *config.Config
	n   *notify.Notifier
	log func(string)

	outMu sync.Mutex
	out   *json.Encoder
	last  map[string]wire.ReceiverStats

	listen string // -listen, which wins over the file's
	web    *web.Server
	addr   string // its address as configured

	waitMu sync.Mutex
	seq    int64
	waits  map[int64]chan *wire.Message // answers awaited from pmie, by seq
}

// read acts on pmie's messages until their end.
func (s *session) read(in io.Reader) error {
	r := bufio.NewReaderSize(in, 256<<10)
	for line := 1; ; line++ {
		b, err := r.ReadBytes('\n')
		if len(b) > 0 {
			var m wire.Message
			if jerr := json.Unmarshal(b, &m); jerr != nil {
				s.log(fmt.Sprintf("alerting: message %d from pmie: %v", line, jerr))
			} else {
				s.handle(&m)
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// handle acts on one message.
func (s *session) handle(m *wire.Message) {
	switch m.Type {
	case "config":
		cfg, err := config.Parse(m.File, m.YAML)
		if err != nil {
			s.log("alerting: the configuration pmie checked does not load here: " + err.Error())
			return
		}
		s.cfg = cfg
		if cfg.Alerting != nil {
			s.n.Apply(cfg.Alerting)
		}
		s.serveHTTP()
	case "eval", "resume":
		s.evaluated(m, m.Type == "resume")
	case "removed":
		s.n.Removed(m.Keys, m.Time)
	case "ping":
		s.send(&wire.Message{Type: "pong", Seq: m.Seq})
	case "snapshot", "reloaded":
		s.waitMu.Lock()
		ch := s.waits[m.Seq]
		delete(s.waits, m.Seq)
		s.waitMu.Unlock()
		if ch != nil {
			ch <- m
		}
	default:
		s.log(fmt.Sprintf("alerting: unknown message %q from pmie", m.Type))
	}
}

// evaluated hands an evaluation to the notifier.
func (s *session) evaluated(m *wire.Message, resume bool) {
	var labels map[string]string
	if s.cfg.Alerting != nil {
		labels = s.cfg.Alerting.Labels
	}
	for i := range m.Rules {
		r := &m.Rules[i]
		for _, a := range r.Fired {
			a.Labels = labels
			if a.Labels == nil {
				a.Labels = map[string]string{}
			}
		}
		s.n.Evaluated(&notify.Evaluation{Key: r.Key, Rule: r.Name, Time: m.Time, Truth: notify.Truth(r.Truth),
			Bindings: func() []notify.Binding { return r.Bindings }, Fired: r.Fired, Resume: resume})
	}
}

// send writes a message to pmie.
func (s *session) send(m *wire.Message) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	s.out.Encode(m)
}

// statsEvery is how often the receivers' counts are sent to pmie (when
// they have changed).
const statsEvery = time.Second

// reportStats sends the receivers' counts to pmie as they change; stop
// ends that.
func (s *session) reportStats() (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(statsEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				s.sendStats()
			}
		}
	}()
	s.sendStats()
	return func() {
		close(done)
		wg.Wait()
	}
}

// sendStats sends the receivers' counts if they have changed.
func (s *session) sendStats() {
	st := s.n.Stats()
	out := make(map[string]wire.ReceiverStats, len(st))
	for name, r := range st {
		out[name] = wire.ReceiverStats{Sent: r.Sent, Failed: r.Failed, Dropped: r.Dropped, Waiting: r.Waiting}
	}
	if s.last != nil && reflect.DeepEqual(out, s.last) {
		return
	}
	s.last = out
	s.send(&wire.Message{Type: "stats", Receivers: out})
}

// serveHTTP starts, moves or stops the HTTP endpoint as the
// configuration in force says.
func (s *session) serveHTTP() {
	addr := s.listen
	if addr == "" {
		addr = s.cfg.Listen
	}
	if addr == s.addr {
		return
	}
	var srv *web.Server
	if addr != "" {
		var err error
		if srv, err = web.Listen(addr, s); err != nil {
			// the endpoint in force, if any, stays
			s.log("pmie: " + err.Error())
			return
		}
	}
	if s.web != nil {
		s.web.Close(context.Background())
	}
	s.web, s.addr = srv, addr
	if srv != nil {
		s.log(infoPrefix + "HTTP endpoint on http://" + srv.Addr())
	}
}

// ask sends pmie a question and waits for its answer.
func (s *session) ask(ctx context.Context, m *wire.Message) (*wire.Message, error) {
	ch := make(chan *wire.Message, 1)
	s.waitMu.Lock()
	s.seq++
	m.Seq = s.seq
	s.waits[m.Seq] = ch
	s.waitMu.Unlock()
	s.send(m)
	select {
	case a := <-ch:
		return a, nil
	case <-ctx.Done():
		s.waitMu.Lock()
		delete(s.waits, m.Seq)
		s.waitMu.Unlock()
		return nil, ctx.Err()
	}
}

// Snapshot asks pmie for its state, with the receivers' counts.
func (s *session) Snapshot(ctx context.Context) (*wire.Snapshot, error) {
	a, err := s.ask(ctx, &wire.Message{Type: "want"})
	if err != nil {
		return nil, err
	}
	if a.Snapshot == nil {
		return nil, errors.New("no snapshot")
	}
	st := s.n.Stats()
	a.Snapshot.Receivers = map[string]wire.ReceiverStats{}
	for name, r := range st {
		a.Snapshot.Receivers[name] = wire.ReceiverStats{Sent: r.Sent, Failed: r.Failed, Dropped: r.Dropped, Waiting: r.Waiting}
	}
	return a.Snapshot, nil
}

// Reload asks pmie to reload.
func (s *session) Reload(ctx context.Context, reason string) error {
	a, err := s.ask(ctx, &wire.Message{Type: "reload", Reason: reason})
	if err != nil {
		return err
	}
	if a.Error != "" {
		return errors.New(a.Error)
	}
	return nil
}
