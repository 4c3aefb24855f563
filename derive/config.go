package derive

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopcp/pmie/internal/pcpconf"
	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// This file loads derived-metric configuration files as libpcp 6.0.3
// does: pmLoadDerivedConfig(3), and the PCP_DERIVED_CONFIG variable read
// when libpcp first needs derived metrics.

// LoadConfig is pmLoadDerivedConfig(3). path is a ":"-separated list of
// files and directories; a directory stands for everything below it, in
// the order the directory lists its entries (as readdir(3) gives them,
// unsorted). It returns how many metrics it defined and the problems met
// on the way, in order. A file or directory that cannot be read stops it
// with an error, as libpcp's does.
func (r *Registry) LoadConfig(path string) (int, []Diagnostic, error) {
	var diags []Diagnostic
	n, err := r.loadPath(path, false, &diags)
	return n, diags, err
}

// LoadEnv loads what libpcp loads before anything else: the files and
// directories named by PCP_DERIVED_CONFIG (none if it is set but empty),
// or when it is not set PCP's global directory, $PCP_VAR_DIR/config/derived,
// if that exists. Files that cannot be read are skipped, as libpcp skips
// them.
func (r *Registry) LoadEnv() []Diagnostic { return r.LoadEnvFrom(os.LookupEnv) }

// LoadEnvFrom is LoadEnv with the environment read through getenv (for
// commands run with an environment of their own).
func (r *Registry) LoadEnvFrom(getenv func(string) (string, bool)) []Diagnostic {
	path, ok := getenv("PCP_DERIVED_CONFIG")
	if !ok {
		global := filepath.Join(pcpVarDir(getenv), "config", "derived")
		if _, err := os.Stat(global); err != nil {
			return nil
		}
		path = global
	}
	var diags []Diagnostic
	r.loadPath(path, true, &diags)
	return diags
}

// Load returns a Registry with libpcp's anonymous metrics and what
// LoadEnv loads, as a libpcp client starts out.
func Load() (*Registry, []Diagnostic) {
	r := NewRegistry()
	return r, r.LoadEnv()
}

// loadPath loads each component of a ":"-separated path. With recover,
// components that cannot be read are skipped.
func (r *Registry) loadPath(path string, recover bool, diags *[]Diagnostic) (int, error) {
	total := 0
	comps := strings.Split(path, ":")
	if comps[len(comps)-1] == "" {
		comps = comps[:len(comps)-1] // libpcp ignores an empty last component
	}
	for _, comp := range comps {
		n, err := r.loadComponent(comp, recover, diags)
		if err != nil && !recover {
			return total, err
		}
		total += n
	}
	return total, nil
}

// loadComponent loads a file, or every file below a directory.
func (r *Registry) loadComponent(name string, recover bool, diags *[]Diagnostic) (int, error) {
	st, err := os.Stat(name)
	if err != nil {
		return 0, unwrapPath(err)
	}
	if st.Mode().IsRegular() {
		return r.loadFile(name, diags)
	}
	if !st.IsDir() {
		return 0, nil
	}
	dir, err := os.Open(name)
	if err != nil {
		return 0, unwrapPath(err)
	}
	entries, err := dir.Readdirnames(-1) // directory order, as readdir(3)
	dir.Close()
	if err != nil {
		return 0, unwrapPath(err)
	}
	total := 0
	for _, e := range entries {
		n, err := r.loadComponent(name+"/"+e, recover, diags)
		if err != nil && !recover {
			return total, err
		}
		total += n
	}
	return total, nil
}

// unwrapPath gives the error inside a *PathError as a PCP error code, as
// libpcp reports -oserror().
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return pmapi.Code(err)
}

// loadFile reads one configuration file, defining its metrics and setting
// their help texts.
func (r *Registry) loadFile(name string, diags *[]Diagnostic) (int, error) {
	text, err := os.ReadFile(name)
	if err != nil {
		return 0, unwrapPath(err)
	}
	return r.loadText(name, string(text), diags), nil
}

// loadText defines the metrics of configuration text called name.
func (r *Registry) loadText(name, text string, diags *[]Diagnostic) int {
	cfg := lang.ReadDerivedConfig(name, text)
	n := 0
	for _, e := range cfg.Entries {
		switch e.Kind {
		case lang.DerivedBad:
			for _, d := range e.Diags {
				*diags = append(*diags, configDiag(cfg, e, d))
			}
		case lang.DerivedDef:
			if d, ok := r.registerEntry(cfg, e); !ok {
				*diags = append(*diags, d)
			} else {
				n++
			}
		case lang.DerivedAttr:
			for _, d := range e.Diags {
				*diags = append(*diags, configDiag(cfg, e, d))
			}
			if reason := r.SetText(e.Name, e.Attr, e.Value); reason != "" {
				d := &lang.Diagnostic{Severity: lang.Error, Src: cfg.Src, Span: e.Where().Span, Msg: reason,
					PCP: lang.PCPForm{Reason: reason, Line: e.Line, Echo: true}}
				*diags = append(*diags, configDiag(cfg, e, d))
			}
		}
	}
	return n
}

// registerEntry registers a name = expr line.
func (r *Registry) registerEntry(cfg *lang.DerivedConfig, e *lang.DerivedEntry) (Diagnostic, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byName[e.Name] != nil {
		return configRegisterError(cfg, e, reasonDuplicateGlobal), false
	}
	x, d := r.parser.AcceptEntry(cfg, e)
	if d != nil {
		return configSyntaxError(cfg, e, d), false
	}
	r.add(&def{name: e.Name, text: strings.TrimLeft(e.ExprText, " \t\n\v\f\r"), expr: x})
	return Diagnostic{}, true
}

// pcpVarDir is $PCP_VAR_DIR as pmGetConfig(3) finds it (the environment
// through getenv, else pcp.conf), as package internal/pcpconf reads it.
func pcpVarDir(getenv func(string) (string, bool)) string {
	return pcpconf.Lookup(getenv, "PCP_VAR_DIR")
}
