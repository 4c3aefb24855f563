package notify

import (
	"fmt"
	"time"

	"github.com/expr-lang/expr/vm"

	"github.com/gopcp/pmie/notify/alert"
)

// match gives the names of the receivers for a at time now: the
// receivers of the first route whose condition is true, and of later ones
// while the matching routes say continue; the default receiver if none
// matches. A route muted now (one of its mute_when windows is open)
// matches as usual but sends nothing. A condition that fails to run
// (such as hosts[0] with no hosts) does not match; its error is returned
// with the route's index.
func match(cfg *Config, a *Alert, now time.Time) (names []string, errs []routeError) {
	e := envOf(a)
	var machine vm.VM
	matched := false
	for i := range cfg.Routes {
		r := &cfg.Routes[i]
		if r.program != nil {
			out, err := runCondition(&machine, r.program, e)
			if err != nil {
				errs = append(errs, routeError{i, err})
				continue
			}
			if ok, _ := out.(bool); !ok {
				continue
			}
		}
		matched = true
		if len(r.MuteWhen) == 0 || !cfg.muted(r.MuteWhen, now) {
			for _, n := range r.Receivers {
				names = alert.AppendNew(names, n)
			}
		}
		if !r.Continue {
			break
		}
	}
	if !matched && cfg.Default != "" {
		names = []string{cfg.Default}
	}
	return names, errs
}

// runCondition runs a route's condition, turning a panic in expr's
// machine (which is not ours) into an error.
func runCondition(m *vm.VM, p *vm.Program, e env) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("%v", r)
		}
	}()
	return m.Run(p, e)
}

type routeError struct {
	route int
	err   error
}
