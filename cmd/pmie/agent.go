package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/internal/pcpconf"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/rules"
	"github.com/gopcp/pmie/rules/agent"
)

// This file is pmie's secret agent mode (-x), in which pmdasummary runs
// it: the rules' values go to its standard output as PDUs (rules/agent).

// agentContexts starts following pmie's PMAPI contexts, under -x, before
// the rules are read: pmie has opened and closed one for each archive,
// and one for -z (unless -Z names the zone).
func (p *session) agentContexts() {
	if !p.s.agent {
		return
	}
	opened := len(p.s.archives)
	if p.s.hostzone && p.s.timezone == "" {
		opened++
	}
	p.contexts = agent.NewContexts(opened)
}

// startAgent does what pmie's agentInit does once the rules are read:
// it loads the default namespace, in which each rule's name is the
// metric it exports, and sends the rules' descriptors. It reports whether
// pmie goes on; if not, it has said why.
func (p *session) startAgent(comp *eval.Compiler) bool {
	p.contexts.Loaded(comp.B.MetricInits())
	ns, err := p.agentNamespace()
	if err != nil {
		fmt.Fprintf(p.stderr, "%s: agentInit: cannot load metric namespace: %s\n", prog, pmapi.Code(err).Error())
		return false
	}
	if realProcess {
		// as libpcp, which ignores SIGPIPE when it first sends a PDU:
		// a PMDA gone is an error writing, which pmie reports
		signal.Ignore(syscall.SIGPIPE)
	}
	p.agent = &agent.Writer{Lookup: ns.LookupName, Contexts: p.contexts}
	if err := p.agent.Start(rules.ByInterval(p.program.Rules), p.out); err != nil {
		p.out.Flush()
		fmt.Fprintf(p.stderr, "%s: %v\n", prog, err)
		return false
	}
	return true
}

// agentNamespace loads the namespace pmie's agentInit loads: the default
// one, $PMNS_DEFAULT or else $PCP_VAR_DIR/pmns/root, read without pmcpp.
// pmie asks for it even when -n has loaded one, which libpcp refuses.
func (p *session) agentNamespace() (*pmapi.Namespace, error) {
	if p.s.namespace != nil {
		return nil, pmapi.ErrDupPMNS
	}
	path, ok := os.LookupEnv("PMNS_DEFAULT")
	if !ok {
		dir := pcpconf.Get("PCP_VAR_DIR")
		if dir == "" {
			return nil, pmapi.ErrGeneric
		}
		path = dir + "/pmns/root"
	}
	ns, err := pmapi.LoadPMNS(path, true, nil)
	if pe, ok := err.(*pmapi.PMNSError); ok {
		p.out.Flush()
		p.s.msgs.Print(pe.Diag)
		p.s.msgs.Flush()
	}
	return ns, err
}

// report is how the engine is to report the values of each evaluation:
// to the summary PMDA under -x, else printed.
func (p *session) report() func([]*eval.Rule, rules.Output) error {
	if p.agent == nil {
		return nil
	}
	return p.agent.Result
}

// agentStopped says why the engine stopped on err if it is the summary
// PMDA's side failing, and gives pmie's exit status then: 0 when the PMDA
// has gone (pmie exits quietly, but for its message), 1 for a rule loaded
// since the start (by the debugger) whose name is no metric.
func agentStopped(err error, stderr io.Writer) (status int, ok bool) {
	var send *agent.SendError
	var name *agent.NameError
	switch {
	case errors.As(err, &send):
		fmt.Fprintf(stderr, "%v\n", send)
		return 0, true
	case errors.As(err, &name):
		fmt.Fprintf(stderr, "%s: %v\n", prog, name)
		return 1, true
	}
	return 0, false
}
