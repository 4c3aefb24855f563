package ruletest

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// reader reads the YAML tree of a test file into a File, collecting
// problems with their positions.
type reader struct {
	src     *lang.Source
	dir     string
	diags   lang.Diagnostics
	nvalues int // values of the series read so far
}

func (r *reader) errorf(sp lang.Span, format string, args ...any) {
	r.diags = append(r.diags, &lang.Diagnostic{Src: r.src, Span: sp, Msg: fmt.Sprintf(format, args...)})
}

// fields reads a mapping whose keys must be among those of handlers,
// calling each key's handler with its value. Keys in required must be
// there. It returns false if n is not a mapping.
func (r *reader) fields(n *ynode, what string, handlers map[string]func(v *ynode), required ...string) bool {
	if n.kind != yMap {
		r.errorf(n.span, "%s must be a mapping, not %s", what, n.describe())
		return false
	}
	given := map[string]bool{}
	for i, k := range n.keys {
		h := handlers[k.text]
		if h == nil {
			r.errorf(k.span, "unknown key %q in %s (expected one of %s)", k.text, what, keyList(handlers))
			continue
		}
		given[k.text] = true
		h(n.vals[i])
	}
	for _, k := range required {
		if !given[k] {
			r.errorf(n.span, "%s has no %s", what, k)
		}
	}
	return true
}

// keyList lists a mapping's allowed keys, sorted.
func keyList(handlers map[string]func(v *ynode)) string {
	return strings.Join(slices.Sorted(maps.Keys(handlers)), ", ")
}

// scalar reads a scalar's text.
func (r *reader) scalar(n *ynode, what string) (string, bool) {
	if n.kind != yScalar {
		r.errorf(n.span, "%s must be a value, not %s", what, n.describe())
		return "", false
	}
	return n.text, true
}

// strings reads a list of scalars, or one scalar as a list of one.
func (r *reader) strings(n *ynode, what string) []string {
	if n.kind == yScalar {
		return []string{n.text}
	}
	if n.kind != ySeq {
		r.errorf(n.span, "%s must be a list, not %s", what, n.describe())
		return nil
	}
	var out []string
	for _, it := range n.items {
		if s, ok := r.scalar(it, what); ok {
			out = append(out, s)
		}
	}
	return out
}

// list reads a list, calling each for every item.
func (r *reader) list(n *ynode, what string, each func(it *ynode)) {
	switch n.kind {
	case ySeq:
		for _, it := range n.items {
			each(it)
		}
	case yNull:
	default:
		r.errorf(n.span, "%s must be a list, not %s", what, n.describe())
	}
}

// interval reads a time interval in PCPIntro(1)'s syntax ("10", "10s",
// "2 min").
func (r *reader) interval(n *ynode, what string) (time.Duration, bool) {
	s, ok := r.scalar(n, what)
	if !ok {
		return 0, false
	}
	d, err := pmapi.ParseInterval(s)
	if err != nil {
		r.errorf(n.span, "%s %q is not an interval (such as 10, 10s or 2 min)", what, s)
		return 0, false
	}
	return d, true
}

// file reads the top level of a test file.
func (r *reader) file(root *ynode) *File {
	f := &File{Path: r.src.Name, Src: r.src, Interval: 10 * time.Second}
	var tests *ynode
	r.fields(root, "the test file", map[string]func(v *ynode){
		"rule_files":    func(v *ynode) { f.RuleFiles = r.globs(v, "rule_files") },
		"derived_files": func(v *ynode) { f.DerivedFiles = r.globs(v, "derived_files") },
		"interval": func(v *ynode) {
			if d, ok := r.interval(v, "interval"); ok {
				if d <= 0 {
					r.errorf(v.span, "interval must be more than 0")
				}
				f.Interval = d
			}
		},
		"labels": func(v *ynode) { f.Labels = r.labels(v) },
		"tests":  func(v *ynode) { tests = v },
	}, "rule_files", "tests")
	if tests == nil {
		return f
	}
	names := map[string]lang.Span{}
	r.list(tests, "tests", func(it *ynode) {
		t := r.test(it)
		if t == nil {
			return
		}
		if prev, ok := names[t.Name]; ok {
			r.diags = append(r.diags, &lang.Diagnostic{Src: r.src, Span: t.Span, Msg: fmt.Sprintf("test %q is named twice", t.Name),
				Notes: []lang.Note{{Src: r.src, Span: prev, Msg: "first named here"}}})
		}
		names[t.Name] = t.Span
		f.Tests = append(f.Tests, t)
	})
	return f
}

// globs reads a list of file name patterns and expands them, relative to
// the test file's directory. A pattern that matches nothing is an error.
func (r *reader) globs(n *ynode, what string) []string {
	var out []string
	items := []*ynode{n}
	if n.kind == ySeq {
		items = n.items
	}
	for _, it := range items {
		pat, ok := r.scalar(it, what)
		if !ok {
			continue
		}
		full := pat
		if !filepath.IsAbs(full) {
			full = filepath.Join(r.dir, pat)
		}
		matches, err := filepath.Glob(full)
		switch {
		case err != nil:
			r.errorf(it.span, "%s: bad pattern %q: %v", what, pat, err)
		case len(matches) == 0:
			r.errorf(it.span, "%s: no file matches %q", what, full)
		}
		out = append(out, matches...)
	}
	return out
}

// labels reads a mapping of names to values.
func (r *reader) labels(n *ynode) map[string]string {
	if n.kind != yMap {
		r.errorf(n.span, "labels must be a mapping of names to values, not %s", n.describe())
		return nil
	}
	out := map[string]string{}
	for i, k := range n.keys {
		if v, ok := r.scalar(n.vals[i], "a label's value"); ok {
			out[k.text] = v
		}
	}
	return out
}

// test reads one test.
func (r *reader) test(n *ynode) *Test {
	t := &Test{Start: defaultStart, Host: defaultHost, Timezone: "UTC", Span: n.span}
	var input, expect *ynode
	ok := r.fields(n, "a test", map[string]func(v *ynode){
		"name": func(v *ynode) {
			t.Name, _ = r.scalar(v, "name")
			t.Span = v.span
		},
		"start":    func(v *ynode) { t.Start, t.StartSet = r.start(v), true },
		"host":     func(v *ynode) { t.Host, _ = r.scalar(v, "host") },
		"timezone": func(v *ynode) { t.Timezone, _ = r.scalar(v, "timezone") },
		"archive":  func(v *ynode) { t.Archives = r.archives(v) },
		"input":    func(v *ynode) { input = v },
		"expect":   func(v *ynode) { expect = v },
	}, "name", "expect")
	if !ok {
		return nil
	}
	switch {
	case input != nil && t.Archives != nil:
		r.errorf(input.span, "a test has input or an archive, not both")
	case input == nil && t.Archives == nil:
		r.errorf(n.span, "a test needs input (or an archive)")
	case input != nil:
		r.list(input, "input", func(it *ynode) {
			if s := r.series(it); s != nil {
				t.Input = append(t.Input, s)
			}
		})
		r.checkDeclarations(t.Input)
	}
	if expect != nil {
		r.list(expect, "expect", func(it *ynode) {
			if e := r.expect(it); e != nil {
				t.Expect = append(t.Expect, e)
			}
		})
	}
	return t
}

// start reads a test's start: an RFC 3339 time, or seconds since the
// epoch.
func (r *reader) start(n *ynode) time.Time {
	s, ok := r.scalar(n, "start")
	if !ok {
		return defaultStart
	}
	if sec, err := strconv.ParseFloat(s, 64); err == nil && sec >= 0 && sec < 1<<40 {
		whole := int64(sec)
		return time.Unix(whole, int64((sec-float64(whole))*1e9)).UTC()
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		r.errorf(n.span, "start %q is not a time (such as 2024-01-01T00:00:00Z, or seconds since 1970)", s)
		return defaultStart
	}
	return t
}

// archives reads archive names, relative to the test file's directory.
func (r *reader) archives(n *ynode) []string {
	var out []string
	for _, a := range r.strings(n, "archive") {
		if !filepath.IsAbs(a) {
			a = filepath.Join(r.dir, a)
		}
		out = append(out, a)
	}
	if out == nil {
		r.errorf(n.span, "archive names no archive")
		out = []string{}
	}
	return out
}
