package ruletest

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/synth"
)

var semNames = map[string]pmapi.Sem{"counter": pmapi.SemCounter, "instant": pmapi.SemInstant, "discrete": pmapi.SemDiscrete}

var typeNames = map[string]pmapi.Type{"32": pmapi.Type32, "u32": pmapi.TypeU32, "64": pmapi.Type64,
	"u64": pmapi.TypeU64, "float": pmapi.TypeFloat, "double": pmapi.TypeDouble}

// series reads one input series.
func (r *reader) series(n *ynode) *Series {
	s := &Series{Span: n.span, Sem: pmapi.SemInstant, Type: pmapi.TypeDouble}
	var nameSpan lang.Span
	ok := r.fields(n, "an input series", map[string]func(v *ynode){
		"metric": func(v *ynode) {
			s.Metric, _ = r.scalar(v, "metric")
			nameSpan = v.span
		},
		"host":     func(v *ynode) { s.Host, _ = r.scalar(v, "host") },
		"instance": func(v *ynode) { s.Instance, _ = r.scalar(v, "instance") },
		"semantics": func(v *ynode) {
			s.Declared = true
			if name, ok := r.scalar(v, "semantics"); ok {
				if s.Sem, ok = semNames[strings.ToLower(name)]; !ok {
					r.errorf(v.span, "semantics %q is not counter, instant or discrete", name)
				}
			}
		},
		"type": func(v *ynode) {
			s.Declared = true
			if name, ok := r.scalar(v, "type"); ok {
				if s.Type, ok = typeNames[strings.ToLower(name)]; !ok {
					r.errorf(v.span, "type %q is not 32, u32, 64, u64, float or double", name)
				}
			}
		},
		"units": func(v *ynode) {
			s.Declared = true
			if text, ok := r.scalar(v, "units"); ok {
				s.Units = r.units(v, text)
			}
		},
		"values": func(v *ynode) { r.values(v, s) },
	}, "metric", "values")
	if !ok {
		return nil
	}
	if s.Metric != "" {
		if err := synth.CheckName(s.Metric); err != nil {
			r.errorf(nameSpan, "%v", err)
		}
	}
	return s
}

// maxFileSamples bounds the values of all the series of a file.
const maxFileSamples = 1 << 21

// units reads units in pmParseUnitsStr(3)'s syntax ("Kbyte / sec",
// "count", "" or "none" for none).
func (r *reader) units(n *ynode, text string) pmapi.Units {
	if t := strings.TrimSpace(text); t == "" || strings.EqualFold(t, "none") {
		return pmapi.Units{}
	}
	u, mult, err := pmapi.ParseUnits(text)
	switch {
	case err != nil:
		r.errorf(n.span, "units %q: %v", text, err)
	case mult != 1:
		r.errorf(n.span, "units %q have a scale factor: metric units cannot (write the values scaled)", text)
	}
	return u
}

// values reads a series' values in expanding notation.
func (r *reader) values(n *ynode, s *Series) {
	text, ok := r.scalar(n, "values")
	if !ok {
		return
	}
	s.ValueSpan = n.span
	vals, err := ParseSeries(text)
	var se *SeriesError
	if errors.As(err, &se) {
		sp := n.span
		if !n.quoted && !strings.Contains(text, "\n") {
			// a plain scalar on one line: point at the item
			sp = r.src.Span(n.span.Start.Offset+se.Offset, n.span.Start.Offset+se.End)
		}
		r.errorf(sp, "values: %s", se.Msg)
		return
	}
	if len(vals) == 0 {
		r.errorf(n.span, "values: there are none")
	}
	if r.nvalues += len(vals); r.nvalues > maxFileSamples {
		r.errorf(n.span, "values: too many in the file (at most %d in all)", maxFileSamples)
		return
	}
	s.Values = vals
}

// checkDeclarations makes the series of each metric agree on its
// semantics, type and units: the series that declare them must declare
// the same, and the others take them.
func (r *reader) checkDeclarations(in []*Series) {
	first := map[string]*Series{}
	for _, s := range in {
		if s.Declared && first[s.Metric] == nil {
			first[s.Metric] = s
		}
	}
	type key struct{ host, metric, inst string }
	seen := map[key]*Series{}
	singular := map[string]*Series{}
	for _, s := range in {
		d := first[s.Metric]
		switch {
		case d == nil:
		case !s.Declared:
			s.Sem, s.Type, s.Units = d.Sem, d.Type, d.Units
		case s.Sem != d.Sem || s.Type != d.Type || s.Units != d.Units:
			r.diags = append(r.diags, &lang.Diagnostic{Src: r.src, Span: s.Span,
				Msg:   fmt.Sprintf("metric %s is declared again, differently (semantics, type and units are declared once per metric)", s.Metric),
				Notes: []lang.Note{{Src: r.src, Span: d.Span, Msg: "declared here"}}})
		}
		k := key{s.Host, s.Metric, s.Instance}
		if prev := seen[k]; prev != nil {
			r.diags = append(r.diags, &lang.Diagnostic{Src: r.src, Span: s.Span, Msg: "this series is given twice",
				Notes: []lang.Note{{Src: r.src, Span: prev.Span, Msg: "first given here"}}})
		}
		seen[k] = s
		if prev, ok := singular[s.Metric]; ok && (prev.Instance == "") != (s.Instance == "") {
			r.errorf(s.Span, "metric %s has series with and without instances", s.Metric)
		}
		singular[s.Metric] = s
	}
}
