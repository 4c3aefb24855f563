package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gopcp/pmie/internal/cstdio"
	"github.com/gopcp/pmie/pmapi"
)

// pminfo is one run: its options, its context and the caches pminfo keeps
// between metrics (which decide, for archives, as of which time instance
// names and labels are looked up).
type pminfo struct {
	cfg    *config
	prog   string
	out    *cstdio.Writer
	errw   io.Writer
	ctx    pmapi.Context
	seeker pmapi.Seeker
	ender  ender // the archive, for pmGetArchiveEnd
	loc    *time.Location
	origin pmapi.Time

	batch  []string // names waiting for report
	result pmapi.Result
	extra  pmapi.Result // the second fetch of -F

	insts  instCache
	labels labelCache

	// stopped is set when an error ends the run (pminfo's exit(1)).
	stopped bool
	damaged map[string]bool // archive damage reported (damage.go)
}

// walk reports on each operand (or the whole namespace), as pminfo's main
// loop does, and returns the exit status.
func (p *pminfo) walk(operands []string) int {
	status := 0
	if len(operands) == 0 {
		if err := p.traverse(""); err != nil {
			fmt.Fprintf(p.errw, "Error: %s\n", errText(err))
			status = 1
		}
	}
	for _, arg := range operands {
		if p.stopped {
			break
		}
		var err error
		if arg != "" && isDigit(arg[0]) {
			err = p.digits(arg)
		} else {
			err = p.traverse(arg)
		}
		if err != nil {
			fmt.Fprintf(p.errw, "Error: %s: %s\n", arg, errText(err))
			status = 1
		}
	}
	p.report()
	if p.stopped {
		return 1
	}
	return status
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// traverse is pmTraversePMNS(name, dometric): every leaf at or below
// name. An empty namespace gives the root itself, which pminfo reports as
// empty.
func (p *pminfo) traverse(name string) error {
	if p.ctx == nil {
		return pmapi.ErrNoContext
	}
	seen := false
	err := pmapi.Traverse(p.ctx, name, func(leaf string) error {
		seen = true
		p.metric(leaf)
		return nil
	})
	if err == nil && !seen && name == "" {
		p.metric("")
	}
	return err
}

// digits handles an operand that starts with a digit: a PMID (its first
// name's subtree) or an instance domain.
func (p *pminfo) digits(arg string) error {
	if f, ok := scanUints(arg, 3); ok {
		id := pmapi.NewPMID(f[0], f[1], f[2])
		if p.ctx == nil {
			return pmapi.ErrNoContext
		}
		names, err := p.ctx.NameAll(id)
		if err != nil {
			return err
		}
		if len(names) == 0 {
			return pmapi.ErrPMID
		}
		return p.traverse(names[0])
	}
	if f, ok := scanUints(arg, 2); ok {
		p.indom(pmapi.NewInDom(f[0], f[1]))
		return nil
	}
	return pmapi.ErrName
}

// scanUints is sscanf(s, "%u.%u[.%u]"): n dot-separated unsigned numbers
// at the start of s, each as strtoul reads it (a sign is allowed, the
// magnitude stops at 2^32-1, and a negative value wraps to 32 bits).
func scanUints(s string, n int) ([]uint32, bool) {
	var out []uint32
	for k := 0; k < n; k++ {
		if k > 0 {
			var ok bool
			if s, ok = strings.CutPrefix(s, "."); !ok {
				return nil, false
			}
		}
		v, rest := pmapi.Strtol(s)
		if rest == s {
			return nil, false
		}
		neg := strings.HasPrefix(strings.TrimLeft(s, " \t\n\v\f\r"), "-")
		s = rest
		const most = 1<<32 - 1
		m := uint32(most)
		if v > -most && v < most {
			m = uint32(max(v, -v))
		}
		if neg {
			m = -m
		}
		out = append(out, m)
	}
	return out, true
}

// metric queues one name for report, reporting when the batch is full.
func (p *pminfo) metric(name string) {
	if name == "" {
		fmt.Fprintf(p.out, "PMNS appears to be empty!\n")
		return
	}
	if p.stopped {
		return
	}
	p.batch = append(p.batch, name)
	if len(p.batch) >= p.cfg.batchSize {
		p.report()
	}
}

// indom reports on an instance domain given by number.
func (p *pminfo) indom(indom pmapi.InDom) {
	c := p.cfg
	if c.verify {
		return
	}
	fmt.Fprintf(p.out, "\nInDom: %s", indom)
	if c.pFullIID {
		fmt.Fprintf(p.out, " = %d =", uint32(indom))
	}
	fmt.Fprintf(p.out, " 0x%x", uint32(indom))
	if c.pOneline {
		p.oneline(uint32(indom), pmapi.TextInDom)
	}
	p.out.WriteByte('\n')
	if c.pLabel {
		p.indomLabels(indom)
	}
	if c.pHelp {
		p.helpText(uint32(indom), pmapi.TextInDom)
	}
}

// lookupNames is pmLookupName over the batch: names that fail are
// reported and dropped. Like libpcp, a batch of one reports the name's
// own error, and a larger batch is only culled when no name is found.
func (p *pminfo) lookupNames() (names []string, ids []pmapi.PMID) {
	var firstErr error
	found := 0
	ids = make([]pmapi.PMID, len(p.batch))
	for i, n := range p.batch {
		id, err := p.ctx.LookupName(n)
		if err != nil {
			ids[i] = pmapi.PMIDNull
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		ids[i] = id
		found++
	}
	if firstErr == nil || (found > 0 && len(p.batch) > 1) {
		return p.batch, ids
	}
	var keptIDs []pmapi.PMID
	for i, n := range p.batch {
		if ids[i] == pmapi.PMIDNull {
			fmt.Fprintf(p.out, "%s: pmLookupName: %s\n", n, errText(firstErr))
			continue
		}
		names = append(names, n)
		keptIDs = append(keptIDs, ids[i])
	}
	return names, keptIDs
}

// report prints what was asked about each name in the batch, as
// pminfo's report() does.
func (p *pminfo) report() {
	if len(p.batch) == 0 {
		return
	}
	defer func() { p.batch = p.batch[:0] }()
	c := p.cfg
	names := p.batch
	ids := make([]pmapi.PMID, len(names))
	if c.needPMID {
		names, ids = p.lookupNames()
	}
	if c.pValue || c.pLabel || c.verify {
		if !p.rewind() {
			return
		}
		if err := p.ctx.Fetch(ids, &p.result); err != nil {
			for _, n := range names {
				fmt.Fprintf(p.out, "%s: pmFetch: %s\n", n, errText(err))
			}
			p.damage(err)
			return
		}
	}
	for i, name := range names {
		var desc pmapi.Desc
		if c.pDesc || c.pValue || c.pLabel || c.pSeries || c.verify {
			var err error
			if desc, err = p.ctx.LookupDesc(ids[i]); err != nil {
				fmt.Fprintf(p.out, "%s: pmLookupDesc: %s\n", name, errText(err))
				continue
			}
		}
		if c.pDesc || c.pHelp || c.pValue || c.pLabel {
			p.out.WriteByte('\n')
		}
		var vs *pmapi.ValueSet
		if c.pValue || c.verify {
			vs = &p.result.Sets[i]
			if c.pForce && pmapi.Code(vs.Err) == pmapi.ErrProfile {
				var ok bool
				if vs, ok = p.fetchAll(name, ids[i], desc.InDom); !ok {
					continue
				}
			}
		}
		if c.verify {
			p.verifyOne(name, desc, vs)
			continue
		}
		p.describe(name, ids[i], desc, vs)
	}
}

// rewind puts an archive back at the origin before a fetch, in the mode
// pminfo reads in (the next record holding each metric). A failure ends
// the run with status 1.
func (p *pminfo) rewind() bool {
	if p.seeker == nil {
		return true
	}
	if err := p.seeker.SetMode(pmapi.ModeForw, p.origin, 0); err != nil {
		fmt.Fprintf(p.errw, "%s: pmSetMode failed: %s\n", p.prog, errText(err))
		p.stopped = true
		return false
	}
	return true
}

// profiler is implemented by live contexts whose instance domains cannot
// be fetched whole without naming the instances (pmAddProfile), which
// -F does.
type profiler interface {
	// SetProfile limits fetches of indom to insts; nil restores all.
	SetProfile(indom pmapi.InDom, insts []int32) error
}

// fetchAll is -F for a metric whose fetch said PM_ERR_PROFILE: fetch it
// again with every instance named.
func (p *pminfo) fetchAll(name string, id pmapi.PMID, indom pmapi.InDom) (*pmapi.ValueSet, bool) {
	insts, err := p.ctx.InDom(indom)
	switch {
	case err != nil:
		fmt.Fprintf(p.out, "%s: pmGetIndom: %s\n", name, errText(err))
		return nil, false
	case len(insts) == 0:
		fmt.Fprintf(p.out, "%s: pmGetIndom: No instances?\n", name)
		return nil, false
	}
	prof, _ := p.ctx.(profiler)
	if prof != nil {
		ids := make([]int32, len(insts))
		for i, in := range insts {
			ids[i] = in.ID
		}
		prof.SetProfile(indom, ids)
	}
	if !p.rewind() {
		return nil, false
	}
	if err := p.ctx.Fetch([]pmapi.PMID{id}, &p.extra); err != nil {
		fmt.Fprintf(p.out, "%s: pmFetch: %s\n", name, errText(err))
		p.damage(err)
		return nil, false
	}
	if prof != nil {
		prof.SetProfile(indom, nil)
	}
	return &p.extra.Sets[0], true
}

func (p *pminfo) verifyOne(name string, desc pmapi.Desc, vs *pmapi.ValueSet) {
	switch {
	case desc.Type == pmapi.TypeNoSupport:
		fmt.Fprintf(p.out, "%s: Not Supported\n", name)
	case vs.Err != nil:
		fmt.Fprintf(p.out, "%s: %s\n", name, errText(vs.Err))
	case len(vs.Values) == 0:
		fmt.Fprintf(p.out, "%s: No value(s) available\n", name)
	}
}

// describe is the detailed report on one metric.
func (p *pminfo) describe(name string, id pmapi.PMID, desc pmapi.Desc, vs *pmapi.ValueSet) {
	c := p.cfg
	p.out.WriteString(name)
	if c.pMid {
		fmt.Fprintf(p.out, " PMID: %s", id)
	}
	if c.pFullMid {
		fmt.Fprintf(p.out, " = %d = 0x%x", uint32(id), uint32(id))
	}
	if c.pOneline {
		p.oneline(uint32(id), pmapi.TextPMID)
	}
	p.out.WriteByte('\n')
	if c.pDesc {
		p.printDesc(desc)
	}
	if c.pSeries {
		p.metricSeries(name, desc)
	}
	if c.pLabel {
		p.metricLabels(desc)
	}
	if c.pHelp {
		p.helpText(uint32(id), pmapi.TextPMID)
	}
	if c.pValue {
		p.dump(desc, vs, "")
	}
	if c.pSeries {
		p.instanceSeries(desc.InDom)
	}
	if c.pLabel {
		p.instanceLabels(desc.InDom, desc)
	}
}

func (p *pminfo) printDesc(d pmapi.Desc) {
	typ := d.Type.Describe()
	fmt.Fprintf(p.out, "    Data Type: %s", typ)
	if typ == "???" {
		fmt.Fprintf(p.out, " (%d)", int32(d.Type))
	}
	fmt.Fprintf(p.out, "  InDom: %s", d.InDom)
	if p.cfg.pFullIID {
		fmt.Fprintf(p.out, " = %d =", uint32(d.InDom))
	}
	fmt.Fprintf(p.out, " 0x%x\n", uint32(d.InDom))
	sem := d.Sem.String()
	fmt.Fprintf(p.out, "    Semantics: %s", sem)
	if sem == "???" {
		fmt.Fprintf(p.out, " (%d)", int32(d.Sem))
	}
	units := d.Units.String()
	if units == "" {
		units = "none"
	}
	fmt.Fprintf(p.out, "  Units: %s\n", units)
}

func (p *pminfo) oneline(id uint32, kind pmapi.TextKind) {
	text, err := p.ctx.Text(id, kind|pmapi.TextOneLine)
	if err != nil {
		fmt.Fprintf(p.out, " One-line Help: Error: %s", errText(err))
		return
	}
	if (p.cfg.pFullMid && kind == pmapi.TextPMID) || (p.cfg.pFullIID && kind == pmapi.TextInDom) {
		p.out.WriteString("\n    ")
	} else {
		p.out.WriteByte(' ')
	}
	fmt.Fprintf(p.out, "[%s]", pmapi.CString(text))
}

func (p *pminfo) helpText(id uint32, kind pmapi.TextKind) {
	text, err := p.ctx.Text(id, kind|pmapi.TextHelp)
	if err != nil {
		fmt.Fprintf(p.out, "Full Help: Error: %s\n", errText(err))
		return
	}
	text = strings.TrimRight(pmapi.CString(text), "\n")
	if text == "" {
		p.out.WriteString("Help: <empty entry>\n")
		return
	}
	fmt.Fprintf(p.out, "Help:\n%s\n", text)
}

// dump prints the values of one metric (pminfo's mydump), each with its
// instance, and with -x the event records they hold.
func (p *pminfo) dump(desc pmapi.Desc, vs *pmapi.ValueSet, indent string) {
	p.out.WriteString(indent)
	switch {
	case vs.Err != nil:
		fmt.Fprintf(p.out, "Error: %s\n", errText(vs.Err))
		return
	case len(vs.Values) == 0:
		p.out.WriteString("No value(s) available!\n")
		return
	}
	for _, v := range vs.Values {
		if desc.InDom != pmapi.InDomNull {
			name, ok := p.insts.name(p.ctx, desc.InDom, v.Inst)
			switch {
			case ok:
				fmt.Fprintf(p.out, "    inst [%d or \"%s\"]", v.Inst, name)
			case p.cfg.pForce:
				fmt.Fprintf(p.out, "    inst [%d \"%s\"]\n", v.Inst, "DISAPPEARED")
				continue
			default:
				fmt.Fprintf(p.out, "pmNameIndom: indom=%s inst=%d: %s\n", desc.InDom, v.Inst, pmapi.ErrInst.Error())
				fmt.Fprintf(p.out, "    inst [%d]", v.Inst)
			}
		} else {
			p.out.WriteString("   ")
		}
		p.out.WriteString(" value ")
		p.out.WriteString(formatValue(desc.Type, v.Atom, p.loc))
		p.out.WriteByte('\n')
		if p.cfg.events && (desc.Type == pmapi.TypeEvent || desc.Type == pmapi.TypeHighresEvent) {
			p.eventDump(v.Atom, desc.Type == pmapi.TypeHighresEvent)
		}
	}
}

// formatValue is pmPrintValue for a value of a metric of type t.
func formatValue(t pmapi.Type, a pmapi.Atom, loc *time.Location) string {
	switch {
	case t == pmapi.TypeNoSupport:
		return "pmPrintValue: bogus value, metric Not Supported\n"
	case t < pmapi.TypeNoSupport || (t > pmapi.TypeHighresEvent && t != pmapi.TypeUnknown):
		return fmt.Sprintf("pmPrintValue: unknown value type=%d\n", int32(t))
	}
	return pmapi.FormatValue(a, 1, loc)
}
