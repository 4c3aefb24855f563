package main

import (
	"fmt"
	"io"

	"github.com/gopcp/pmie/derive"
	"github.com/gopcp/pmie/pmapi"
)

// Deriver is pminfo's derived metrics: libpcp's global registry, filled
// when libpcp fills it.
type Deriver interface {
	// Load is -c FILE, acted on where it stands on the command line
	// (pminfo calls pmLoadDerivedConfig in its option loop): the first
	// call into libpcp's derived metrics loads $PCP_DERIVED_CONFIG (or
	// PCP's directory), then FILE is loaded. Messages go to w.
	Load(file, prog string, w io.Writer)
	// Wrap puts the derived metrics over ctx, loading
	// $PCP_DERIVED_CONFIG first if no -c did (libpcp does so when the
	// context is made). Messages go to w, and a metric's semantic
	// errors when pminfo first uses it.
	Wrap(ctx pmapi.Context, w io.Writer) pmapi.Context
}

// newDerived is the Deriver of package derive, with the environment read
// through getenv.
func newDerived(getenv func(string) (string, bool)) Deriver {
	return &derived{reg: derive.NewRegistry(), getenv: getenv}
}

type derived struct {
	reg    *derive.Registry
	getenv func(string) (string, bool)
	inited bool
}

// init loads what libpcp loads the first time any of its derived metric
// code runs.
func (d *derived) init(w io.Writer) {
	if !d.inited {
		d.inited = true
		fmt.Fprint(w, derive.PCPReport(d.reg.LoadEnvFrom(d.getenv)))
	}
}

func (d *derived) Load(file, prog string, w io.Writer) {
	d.init(w)
	_, diags, err := d.reg.LoadConfig(file)
	fmt.Fprint(w, derive.PCPReport(diags))
	if err != nil {
		fmt.Fprintf(w, "%s: derived configuration(s) error: %v\n", prog, err)
	}
}

func (d *derived) Wrap(ctx pmapi.Context, w io.Writer) pmapi.Context {
	d.init(w)
	dctx := derive.Layer(ctx, d.reg)
	if c, ok := derive.Derived(dctx); ok {
		c.OnBind(func(ds []derive.Diagnostic) { fmt.Fprint(w, derive.PCPReport(ds)) })
	}
	return dctx
}

// msgWriter adds what is written to the messages of the command line, so
// that they come out in the order libpcp prints them.
type msgWriter struct{ c *config }

func (m msgWriter) Write(b []byte) (int, error) {
	if len(b) > 0 {
		m.c.std.Printf(string(b))
		m.c.flush() // each message, as libpcp's pmLoadDerivedConfig
	}
	return len(b), nil
}
