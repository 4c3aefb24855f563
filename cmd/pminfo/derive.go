package main

import (
	"fmt"
	"io"
	"os"

	"github.com/gopcp/pmie/derive"
	"github.com/gopcp/pmie/pmapi"
)

// wrapDerived puts derived metrics (package derive) over whatever
// context pminfo opened: libpcp's global derived metrics
// ($PCP_DERIVED_CONFIG, else PCP's directory), then each -c file.
// Problems are printed as libpcp prints them: configuration errors at
// once, a metric's semantic errors when pminfo first uses it.
func wrapDerived(ctx pmapi.Context, files []string, env string, set bool, errw io.Writer) (pmapi.Context, error) {
	reg := derive.NewRegistry()
	getenv := func(k string) (string, bool) {
		if k == "PCP_DERIVED_CONFIG" {
			return env, set
		}
		return os.LookupEnv(k)
	}
	fmt.Fprint(errw, derive.PCPReport(reg.LoadEnvFrom(getenv)))
	for _, f := range files {
		_, diags, err := reg.LoadConfig(f)
		fmt.Fprint(errw, derive.PCPReport(diags))
		if err != nil {
			fmt.Fprintf(errw, "pminfo: derived configuration(s) error: %v\n", err)
		}
	}
	dctx := derive.Layer(ctx, reg)
	if c, ok := derive.Derived(dctx); ok {
		c.OnBind(func(ds []derive.Diagnostic) { fmt.Fprint(errw, derive.PCPReport(ds)) })
	}
	return dctx, nil
}
