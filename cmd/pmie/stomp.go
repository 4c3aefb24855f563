package main

import (
	"github.com/gopcp/pmie/actions/stomp"
	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/internal/pcpconf"
	"github.com/gopcp/pmie/rules"
)

// hasStomp reports whether any statement of prog has a stomp action, for
// which pmie connects to its JMS server before evaluating.
func hasStomp(prog *eval.Program) bool {
	seen := map[*eval.Node]bool{}
	var walk func(n *eval.Node) bool
	walk = func(n *eval.Node) bool {
		if n == nil || seen[n] {
			return false
		}
		seen[n] = true
		return n.Op == eval.OpStomp || walk(n.Arg1) || walk(n.Arg2)
	}
	for _, r := range prog.Rules {
		if walk(r.Root) {
			return true
		}
	}
	for _, n := range prog.Vars {
		if walk(n) {
			return true
		}
	}
	return false
}

// stompClient reads the stomp configuration (-j's file, else
// $PCP_VAR_DIR/config/pmie/stomp) and makes the client, its messages
// going to pmie's log; nil after saying why there is none.
func (p *session) stompClient() *stomp.Client {
	name := p.s.stompFile
	if !p.s.stompGiven {
		name = stomp.DefaultFile(pcpconf.Get("PCP_VAR_DIR"))
	}
	cfg, errs := stomp.ReadConfig(name)
	for _, e := range errs {
		p.log.notify(rules.Error, e)
	}
	if cfg == nil {
		return nil
	}
	return &stomp.Client{Cfg: cfg, Verbose: p.s.verbose > 0,
		Info:  func(msg string) { p.log.notify(rules.Info, msg) },
		Error: func(msg string) { p.log.notify(rules.Error, msg) }}
}

// startStomp connects to the JMS server, as pmie does once its rules are
// loaded when any has a stomp action; false means pmie exits with status
// 1, what went wrong said.
func (p *session) startStomp() bool {
	if !hasStomp(p.program) {
		return true
	}
	if p.stomp = p.stompClient(); p.stomp == nil {
		return false
	}
	return p.stomp.Start()
}

// sendStomp runs a stomp action. A stomp action that came with a
// reload, where none was at start, reads the configuration then.
func (p *session) sendStomp(msg string) bool {
	if p.stomp == nil {
		if p.stompTried {
			return false
		}
		p.stompTried = true
		if p.stomp = p.stompClient(); p.stomp == nil {
			return false
		}
	}
	return p.stomp.Send(msg)
}
