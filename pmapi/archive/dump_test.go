package archive

// This file prints what a Context answers in the text form of the
// fetchdump oracle (testdata/golden/archive/oracle/fetchdump.c), which
// prints what libpcp answers, so the two can be compared line by line.

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

// parseNS parses fetchdump's decimal seconds into nanoseconds.
func parseNS(s string) int64 {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	sec, _ := strconv.ParseInt(whole, 10, 64)
	for len(frac) < 9 {
		frac += "0"
	}
	ns, _ := strconv.ParseInt(frac[:9], 10, 64)
	ns += sec * 1e9
	if neg {
		return -ns
	}
	return ns
}

// cG formats f as C's printf %.<prec>g does.
func cG(f float64, prec int) string {
	switch {
	case math.IsNaN(f):
		if math.Signbit(f) {
			return "-nan"
		}
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, 'g', prec, 64)
}

// quote formats a string as fetchdump's printstr does.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s) && s[i] != 0; i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < ' ' || c >= 0x7f:
			fmt.Fprintf(&b, "\\x%02x", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// formatAtom formats a value of a metric of type t as fetchdump does.
func formatAtom(t pmapi.Type, a pmapi.Atom) string {
	switch t {
	case pmapi.Type32:
		return strconv.FormatInt(int64(int32(a.Int64())), 10)
	case pmapi.TypeU32:
		return strconv.FormatUint(uint64(uint32(a.Uint64())), 10)
	case pmapi.Type64:
		return strconv.FormatInt(a.Int64(), 10)
	case pmapi.TypeU64:
		return strconv.FormatUint(a.Uint64(), 10)
	case pmapi.TypeFloat:
		return cG(float64(a.Float32()), 9)
	case pmapi.TypeDouble:
		return cG(a.Float64(), 17)
	case pmapi.TypeString:
		return quote(a.Str())
	case pmapi.TypeEvent, pmapi.TypeHighresEvent:
		b := a.Str()
		n := 0
		if len(b) >= 4 {
			n = int(int32(binary.BigEndian.Uint32([]byte(b[:4]))))
		}
		return fmt.Sprintf("event[%d bytes, %d records]", len(b), n)
	case pmapi.TypeAggregate, pmapi.TypeAggregateStatic:
		return fmt.Sprintf("blob[%x]", a.Str())
	}
	return "extract-failed"
}

func stamp(t pmapi.Time) string { return fmt.Sprintf("%d.%09d", t.Sec(), t.Nsec()) }

func writeHeader(b *strings.Builder, c *Context) {
	l := c.archives[0].label
	_, end := c.Bounds()
	fmt.Fprintf(b, "archive host %s start %s end %s (0)\n", l.Host, stamp(l.Start), stamp(end))
}

// allNames lists the context's metric names in traversal order, leaving
// out libpcp's anonymous derived event metrics as fetchdump does.
func allNames(c *Context) []string {
	var names []string
	pmapi.Traverse(c, "", func(n string) error {
		if n != "event.flags" && n != "event.missed" {
			names = append(names, n)
		}
		return nil
	})
	return names
}

func lookupAll(c *Context, names []string) ([]pmapi.PMID, map[pmapi.PMID]pmapi.Desc) {
	ids := make([]pmapi.PMID, len(names))
	descs := make(map[pmapi.PMID]pmapi.Desc)
	for i, n := range names {
		id, err := c.LookupName(n)
		if err != nil {
			id = pmapi.PMIDNull
		}
		ids[i] = id
		if d, err := c.LookupDesc(id); err == nil {
			descs[id] = d
		}
	}
	return ids, descs
}

// uniqueIDs drops repeated PMIDs, as fetchdump does.
func uniqueIDs(ids []pmapi.PMID) []pmapi.PMID {
	seen := make(map[pmapi.PMID]bool)
	out := ids[:0:0]
	for _, id := range ids {
		if id != pmapi.PMIDNull && seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, id)
	}
	return out
}

func writeResult(b *strings.Builder, r *pmapi.Result, descs map[pmapi.PMID]pmapi.Desc) {
	fmt.Fprintf(b, "fetch %s\n", stamp(r.Time))
	for _, s := range r.Sets {
		fmt.Fprintf(b, "  %s", s.PMID)
		if s.Err != nil {
			fmt.Fprintf(b, " err %d\n", pmapi.Code(s.Err))
			continue
		}
		fmt.Fprintf(b, " %d\n", len(s.Values))
		t := pmapi.TypeUnknown
		if d, ok := descs[s.PMID]; ok {
			t = d.Type
		}
		for _, v := range s.Values {
			fmt.Fprintf(b, "    %d %s\n", v.Inst, formatAtom(t, v.Atom))
		}
	}
}

// dumpFetch does what "fetchdump NAME interp|forw|back START [DELTA] COUNT
// [METRIC...]" does.
func dumpFetch(c *Context, mode pmapi.Mode, start string, delta string, count int, metrics []string) string {
	var b strings.Builder
	writeHeader(&b, c)
	if len(metrics) == 0 {
		metrics = allNames(c)
	}
	ids, descs := lookupAll(c, metrics)
	ids = uniqueIDs(ids)
	var t pmapi.Time
	if strings.HasPrefix(start, "@") {
		t = pmapi.Time(parseNS(start[1:]))
	} else {
		t = c.archives[0].label.Start + pmapi.Time(parseNS(start))
	}
	var d time.Duration
	if mode == pmapi.ModeInterp {
		d = time.Duration(parseNS(delta))
	}
	if err := c.SetMode(mode, t, d); err != nil {
		fmt.Fprintf(&b, "setmode err %d\n", pmapi.Code(err))
		return b.String()
	}
	var r pmapi.Result
	for i := 0; i < count; i++ {
		if err := c.Fetch(ids, &r); err != nil {
			fmt.Fprintf(&b, "fetch err %d\n", pmapi.Code(err))
			if mode != pmapi.ModeInterp {
				break
			}
			continue
		}
		writeResult(&b, &r, descs)
	}
	return b.String()
}

// dumpRecords does what "fetchdump NAME records" does, for a context of
// one archive.
func dumpRecords(c *Context) string {
	var b strings.Builder
	writeHeader(&b, c)
	a := c.archives[0]
	rd := a.Records()
	for rd.Next() {
		rec := rd.Record()
		mark := ""
		if rec.Mark {
			mark = " mark"
		}
		fmt.Fprintf(&b, "record %d.%06d%s\n", rec.Time.Sec(), rec.Time.Nsec()/1000, mark)
		for _, s := range rec.Sets {
			fmt.Fprintf(&b, "  %s", s.PMID)
			if s.Err != nil {
				fmt.Fprintf(&b, " err %d\n", pmapi.Code(s.Err))
				continue
			}
			fmt.Fprintf(&b, " %d\n", len(s.Values))
			t := pmapi.TypeUnknown
			if d, err := c.LookupDesc(s.PMID); err == nil {
				t = d.Type
			}
			for _, v := range s.Values {
				fmt.Fprintf(&b, "    %d %s\n", v.Inst, formatAtom(t, v.Atom))
			}
		}
	}
	code := pmapi.ErrEOL
	if rd.Err() != nil {
		code = pmapi.Code(rd.Err())
	}
	fmt.Fprintf(&b, "end %d\n", code)
	return b.String()
}

func writeText(b *strings.Builder, what string, s string, err error) {
	fmt.Fprintf(b, "  %s ", what)
	if err != nil {
		fmt.Fprintf(b, "err %d\n", pmapi.Code(err))
		return
	}
	fmt.Fprintf(b, "%s\n", quote(s))
}

func writeLabels(b *strings.Builder, what string, sets []pmapi.LabelSet, err error) {
	fmt.Fprintf(b, "  %s", what)
	if err != nil {
		fmt.Fprintf(b, " err %d\n", pmapi.Code(err))
		return
	}
	fmt.Fprintf(b, " %d\n", len(sets))
	for _, s := range sets {
		fmt.Fprintf(b, "    inst %d", s.Inst)
		for _, l := range s.Labels {
			fmt.Fprintf(b, " %s=%s/%d", l.Name, l.Value, l.Flags)
		}
		b.WriteByte('\n')
	}
}

func writeChildren(b *strings.Builder, c *Context, name string) {
	kids, err := c.Children(name)
	if err != nil {
		fmt.Fprintf(b, "children %s err %d\n", name, pmapi.Code(err))
		return
	}
	if len(kids) == 0 {
		return
	}
	shown := name
	if shown == "" {
		shown = "<root>"
	}
	fmt.Fprintf(b, "children %s", shown)
	for _, k := range kids {
		slash := "/"
		if k.Leaf {
			slash = ""
		}
		fmt.Fprintf(b, " %s%s", k.Name, slash)
	}
	b.WriteByte('\n')
	for _, k := range kids {
		if !k.Leaf {
			full := k.Name
			if name != "" {
				full = name + "." + k.Name
			}
			writeChildren(b, c, full)
		}
	}
}

// dumpMeta does what "fetchdump NAME meta" does.
func dumpMeta(c *Context) string {
	var b strings.Builder
	writeHeader(&b, c)
	writeChildren(&b, c, "")
	sets, err := c.Labels(pmapi.LabelContext, 0)
	writeLabels(&b, "context-labels", sets, err)
	names := allNames(c)
	ids, descs := lookupAll(c, names)
	for i, n := range names {
		d := descs[ids[i]]
		u := d.Units
		fmt.Fprintf(&b, "metric %s %s type %d sem %d indom %s units %d,%d,%d,%d,%d,%d\n", n, ids[i], d.Type, d.Sem, d.InDom,
			u.DimSpace, u.DimTime, u.DimCount, u.ScaleSpace, u.ScaleTime, u.ScaleCount)
		all, _ := c.NameAll(ids[i])
		fmt.Fprintf(&b, "  names%s\n", prefixEach(all))
		s, err := c.Text(uint32(ids[i]), pmapi.TextOneLine|pmapi.TextPMID)
		writeText(&b, "oneline", s, err)
		s, err = c.Text(uint32(ids[i]), pmapi.TextHelp|pmapi.TextPMID)
		writeText(&b, "help", s, err)
		if d.InDom != pmapi.InDomNull {
			s, err = c.Text(uint32(d.InDom), pmapi.TextOneLine|pmapi.TextInDom)
			writeText(&b, "indom-oneline", s, err)
			s, err = c.Text(uint32(d.InDom), pmapi.TextHelp|pmapi.TextInDom)
			writeText(&b, "indom-help", s, err)
		}
		sets, err := c.Labels(pmapi.LabelDomain, uint32(ids[i]))
		writeLabels(&b, "domain-labels", sets, err)
		cluster := pmapi.NewPMID(ids[i].Domain(), ids[i].Cluster(), 0)
		sets, err = c.Labels(pmapi.LabelCluster, uint32(cluster))
		writeLabels(&b, "cluster-labels", sets, err)
		sets, err = c.Labels(pmapi.LabelItem, uint32(ids[i]))
		writeLabels(&b, "item-labels", sets, err)
		if d.InDom != pmapi.InDomNull {
			sets, err = c.Labels(pmapi.LabelInDom, uint32(d.InDom))
			writeLabels(&b, "indom-labels", sets, err)
			sets, err = c.Labels(pmapi.LabelInstances, uint32(d.InDom))
			writeLabels(&b, "instances-labels", sets, err)
		}
	}
	return b.String()
}

func prefixEach(l []string) string {
	var b strings.Builder
	for _, s := range l {
		b.WriteByte(' ')
		b.WriteString(s)
	}
	return b.String()
}

// dumpInDoms does what "fetchdump NAME indom START STEP COUNT" does.
func dumpInDoms(c *Context, start string, step string, count int) string {
	var b strings.Builder
	writeHeader(&b, c)
	names := allNames(c)
	ids, descs := lookupAll(c, names)
	seen := make(map[pmapi.InDom]bool)
	base := c.archives[0].label.Start + pmapi.Time(parseNS(start))
	if strings.HasPrefix(start, "@") {
		base = pmapi.Time(parseNS(start[1:]))
	}
	st := pmapi.Time(parseNS(step))
	for _, id := range ids {
		indom := descs[id].InDom
		if _, ok := descs[id]; !ok || indom == pmapi.InDomNull || seen[indom] {
			continue
		}
		seen[indom] = true
		for k := 0; k < count; k++ {
			t := base + pmapi.Time(k)*st
			c.SetMode(pmapi.ModeForw, t, 0)
			fmt.Fprintf(&b, "indom %s at %s", indom, stamp(t))
			insts, err := c.InDom(indom)
			if err != nil {
				fmt.Fprintf(&b, " err %d\n", pmapi.Code(err))
				continue
			}
			fmt.Fprintf(&b, " %d\n", len(insts))
			for _, in := range insts {
				fmt.Fprintf(&b, "    %d %s\n", in.ID, quote(in.Name))
			}
		}
	}
	return b.String()
}

// dumpScript does what "fetchdump NAME script" does with the steps in
// script.
func dumpScript(c *Context, script string) string {
	var b strings.Builder
	writeHeader(&b, c)
	base := c.archives[0].label.Start
	for line := range strings.SplitSeq(script, "\n") {
		w := strings.Fields(line)
		if len(w) == 0 {
			continue
		}
		fmt.Fprintf(&b, "step %s\n", strings.Join(w, " "))
		switch {
		case (w[0][0] == '+' || w[0][0] == '-') && strings.Contains(w[0], ":"):
			if err := applyProfile(c, w[0]); err != nil {
				fmt.Fprintf(&b, "profile %s err %d\n", w[0], pmapi.Code(err))
			}
		case w[0] == "indoms":
			writeInDoms(&b, c)
		case w[0] == "fetch" && len(w) >= 2:
			count, _ := strconv.Atoi(w[1])
			metrics := w[2:]
			if len(metrics) == 0 {
				metrics = allNames(c)
			}
			ids, descs := lookupAll(c, metrics)
			ids = uniqueIDs(ids)
			var r pmapi.Result
			for range count {
				if err := c.Fetch(ids, &r); err != nil {
					fmt.Fprintf(&b, "fetch err %d\n", pmapi.Code(err))
					continue
				}
				writeResult(&b, &r, descs)
			}
		case len(w) >= 2:
			t := base + pmapi.Time(parseNS(w[1]))
			if strings.HasPrefix(w[1], "@") {
				t = pmapi.Time(parseNS(w[1][1:]))
			}
			mode, d := pmapi.ModeForw, time.Duration(0)
			switch w[0] {
			case "interp":
				if len(w) >= 3 {
					mode, d = pmapi.ModeInterp, time.Duration(parseNS(w[2]))
				}
			case "back":
				mode = pmapi.ModeBack
			}
			if err := c.SetMode(mode, t, d); err != nil {
				fmt.Fprintf(&b, "setmode err %d\n", pmapi.Code(err))
			}
		}
	}
	return b.String()
}

// writeInDoms prints every instance domain of the context's metrics as of
// its current time, as fetchdump's "indoms" step does.
func writeInDoms(b *strings.Builder, c *Context) {
	ids, descs := lookupAll(c, allNames(c))
	seen := make(map[pmapi.InDom]bool)
	for _, id := range ids {
		d, ok := descs[id]
		if !ok || id == pmapi.PMIDNull || d.InDom == pmapi.InDomNull || seen[d.InDom] {
			continue
		}
		seen[d.InDom] = true
		fmt.Fprintf(b, "indom %s", d.InDom)
		insts, err := c.InDom(d.InDom)
		if err != nil {
			fmt.Fprintf(b, " err %d\n", pmapi.Code(err))
			continue
		}
		fmt.Fprintf(b, " %d\n", len(insts))
		for _, in := range insts {
			fmt.Fprintf(b, "    %d %s\n", in.ID, quote(in.Name))
		}
	}
}
