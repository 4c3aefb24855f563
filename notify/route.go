package notify

import (
	"github.com/expr-lang/expr/vm"

	"github.com/gopcp/pmie/notify/alert"
)

// match gives the names of the receivers for a: the receivers of the
// first route whose condition is true, and of later ones while the
// matching routes say continue; the default receiver if none matches.
// A condition that fails to run (such as hosts[0] with no hosts) does not
// match; its error is returned with the route's index.
func match(routes []Route, def string, a *Alert) (names []string, errs []routeError) {
	e := envOf(a)
	var machine vm.VM
	matched := false
	for i := range routes {
		r := &routes[i]
		if r.program != nil {
			out, err := machine.Run(r.program, e)
			if err != nil {
				errs = append(errs, routeError{i, err})
				continue
			}
			if ok, _ := out.(bool); !ok {
				continue
			}
		}
		matched = true
		for _, n := range r.Receivers {
			names = alert.AppendNew(names, n)
		}
		if !r.Continue {
			break
		}
	}
	if !matched && def != "" {
		names = []string{def}
	}
	return names, errs
}

type routeError struct {
	route int
	err   error
}
