package archive

// This file reproduces, from a Context, the value lines pmval prints for
// an archive (interpolation mode, all instances, -r or rate conversion),
// so that pmval's own output can serve as a golden. It follows pmval
// 6.0.3's main loop: when it reprints instance headings, how it reports
// missing values, and how it formats numbers.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

type pmvalRun struct {
	c      *Context
	desc   pmapi.Desc
	id     pmapi.PMID
	raw    bool
	cols   int
	insts  []pmapi.Instance
	style  int // -1 until worked out, as pmval's printlabels does
	scale  float64
	finish float64
	out    []string
	line   strings.Builder
}

// howide is pmval's column width for a type.
func howide(t pmapi.Type) int {
	switch t {
	case pmapi.Type32, pmapi.TypeU32:
		return 11
	case pmapi.TypeFloat:
		return 13
	}
	return 21
}

func (p *pmvalRun) printf(format string, args ...any) { fmt.Fprintf(&p.line, format, args...) }

func (p *pmvalRun) endLine() {
	p.out = append(p.out, p.line.String())
	p.line.Reset()
}

// printreal is pmval's printreal.
func (p *pmvalRun) printreal(v float64, sem pmapi.Sem, w int) {
	switch {
	case v < 0 && sem == pmapi.SemCounter:
		p.printf("%*s", w, "!")
	case v == 0:
		p.printf("%*.0f.0   ", w-5, v)
	case v < 0.1 || v > 9999:
		p.printf("%*.3E", w, v)
	case v <= 0.9999:
		p.printf("%*.4f", w, v)
	case v <= 9.999:
		p.printf("%*.3f ", w-1, v)
	case v <= 99.99:
		p.printf("%*.2f  ", w-2, v)
	case v <= 999.9:
		p.printf("%*.1f   ", w-3, v)
	case math.IsNaN(v):
		// every comparison above is false, and C prints "nan"
		p.printf("%*s.    ", w-5, "nan")
	default:
		p.printf("%*.0f.    ", w-5, v)
	}
}

// printValue is pmPrintValue, or printreal for floating point types.
func (p *pmvalRun) printValue(a pmapi.Atom) {
	if a.Type == pmapi.TypeUnknown || p.desc.Type == pmapi.TypeAggregate {
		// pmPrintValue's form for what it cannot convert
		p.printf("%s", pmapi.FormatValue(a, p.cols, nil))
		return
	}
	switch p.desc.Type {
	case pmapi.Type32:
		p.printf("%*d", p.cols, int32(a.Int64()))
	case pmapi.TypeU32:
		p.printf("%*d", p.cols, uint32(a.Uint64()))
	case pmapi.Type64:
		p.printf("%*d", p.cols, a.Int64())
	case pmapi.TypeU64:
		p.printf("%*d", p.cols, a.Uint64())
	case pmapi.TypeFloat, pmapi.TypeDouble:
		p.printreal(a.Float64(), p.desc.Sem, p.cols)
	case pmapi.TypeString:
		s := `"` + a.Str() + `"`
		p.printf("%*s", p.cols, s)
	}
}

func (p *pmvalRun) timestamp(sec, nsec int64) {
	t := time.Unix(sec, 0).UTC()
	p.printf("%02d:%02d:%02d.%03d", t.Hour(), t.Minute(), t.Second(), nsec/1000000)
}

func (p *pmvalRun) printlabels() {
	if p.style == -1 {
		p.style = 0
		for _, in := range p.insts {
			if len(in.Name) > p.cols {
				p.style = 2
				break
			}
			if len(in.Name) > p.cols-3 {
				p.style = 1
			}
		}
		if p.style == 2 {
			for i, in := range p.insts {
				p.printf("full label for instance[%d]: %s", i, in.Name)
				p.endLine()
			}
		}
	}
	p.endLine()
	for i, in := range p.insts {
		if i == 0 {
			p.printf("%12s", "")
		}
		if p.raw || p.desc.Sem != pmapi.SemCounter || p.style != 0 {
			p.printf("%*.*s ", p.cols, p.cols, in.Name)
		} else {
			p.printf("%*.*s    ", p.cols-3, p.cols-3, in.Name)
		}
	}
	if len(p.insts) > 0 {
		p.endLine()
	}
}

type sample struct {
	sec, nsec int64
	set       pmapi.ValueSet
}

// getvals is pmval's getvals: 0 with a sample, -1 with no values, -2
// past the end of the time window, -3 at the end of the archive.
func (p *pmvalRun) getvals() (sample, int) {
	s := sample{sec: p.c.osec, nsec: p.c.onsec}
	var r pmapi.Result
	if err := p.c.Fetch([]pmapi.PMID{p.id}, &r); err != nil {
		return s, -3
	}
	if float64(s.sec)+float64(s.nsec)/1e9 > p.finish {
		return s, -2
	}
	vs := r.Sets[0]
	if len(vs.Values) == 0 || vs.Err != nil {
		p.timestamp(s.sec, s.nsec)
		p.printf("  No values available")
		p.endLine()
		return s, -1
	}
	vs.Values = slices.Clone(vs.Values)
	slices.SortStableFunc(vs.Values, func(a, b pmapi.Value) int { return int(a.Inst) - int(b.Inst) })
	s.set = vs
	return s, 0
}

func find(vs pmapi.ValueSet, inst int32) (pmapi.Atom, bool) {
	for _, v := range vs.Values {
		if v.Inst == inst {
			return v.Atom, true
		}
	}
	return pmapi.Atom{}, false
}

func (p *pmvalRun) printvals(s sample) {
	if p.desc.InDom == pmapi.InDomNull {
		if len(s.set.Values) == 1 {
			p.printValue(s.set.Values[0].Atom)
		} else {
			p.printf("%*s", p.cols, "?")
		}
		p.endLine()
		return
	}
	for _, in := range p.insts {
		if a, ok := find(s.set, in.ID); ok {
			p.printValue(a)
		} else {
			p.printf("%*s", p.cols, "?")
		}
		p.printf(" ")
	}
	p.endLine()
}

func (p *pmvalRun) printrate(a, b pmapi.Atom, delta float64) {
	v := (a.Float64() - b.Float64()) / delta
	p.printreal(v, pmapi.SemCounter, p.cols)
}

func (p *pmvalRun) printrates(s1, s2 sample) {
	delta := p.scale * ((float64(s1.sec) + float64(s1.nsec)/1e9) - (float64(s2.sec) + float64(s2.nsec)/1e9))
	if p.desc.InDom == pmapi.InDomNull {
		if len(s1.set.Values) == 1 && len(s2.set.Values) == 1 {
			p.printrate(s1.set.Values[0].Atom, s2.set.Values[0].Atom, delta)
		} else {
			p.printf("%*s", p.cols, "?")
		}
		p.endLine()
		return
	}
	for _, in := range p.insts {
		a, ok1 := find(s1.set, in.ID)
		b, ok2 := find(s2.set, in.ID)
		if ok1 && ok2 {
			p.printrate(a, b, delta)
		} else {
			p.printf("%*s", p.cols, "?")
		}
		p.printf(" ")
	}
	p.endLine()
}

// run is pmval's main loop for samples fetches.
func (p *pmvalRun) run(samples int) {
	havePrev, reporting, noValues := false, false, false
	var prev sample
	for ; samples > 0; samples-- {
		if !havePrev {
			s, st := p.getvals()
			switch {
			case st == 0:
				havePrev = true
				prev = s
				if p.desc.InDom != pmapi.InDomNull {
					p.printlabels()
				}
				if p.raw || p.desc.Sem != pmapi.SemCounter {
					p.timestamp(s.sec, s.nsec)
					p.printvals(s)
					reporting = true
					continue
				} else if noValues || reporting {
					p.timestamp(s.sec, s.nsec)
					p.printf("  No values available")
					p.endLine()
				}
				noValues = false
			case st == -3:
				return
			case st == -2:
				return
			default:
				noValues = true
			}
		}
		if !havePrev {
			continue
		}
		s, st := p.getvals()
		if st == -3 || st == -2 {
			return
		}
		if st < 0 {
			havePrev = false
			continue
		}
		p.timestamp(s.sec, s.nsec)
		if p.raw || p.desc.Sem != pmapi.SemCounter {
			p.printvals(s)
		} else {
			p.printrates(s, prev)
		}
		reporting = true
		prev = s
	}
}

// pmvalBody runs "pmval ARGS" against our Context, returning the lines
// pmval prints after its header. samples is the number of fetches
// pmval's header announces.
func pmvalBody(t *testing.T, dir string, args []string, samples int) []string {
	var arch, metric string
	var raw bool
	var interval, offset int64 = 1e9, 0
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-Z":
			i++ // we print in UTC, as the goldens ask
		case "-a":
			i++
			arch = args[i]
		case "-t":
			i++
			interval = parseNS(args[i])
		case "-S":
			i++
			offset = parseNS(strings.TrimPrefix(args[i], "+"))
		case "-r":
			raw = true
		case "-s":
			i++ // the header's sample count is used
		default:
			metric = args[i]
		}
	}
	c, err := openCached(dir, arch)
	if err != nil {
		t.Fatalf("pmval %v: %v", args, err)
	}
	p := &pmvalRun{c: c, raw: raw, style: -1, scale: 1}
	if p.id, err = c.LookupName(metric); err != nil {
		t.Fatalf("pmval %v: %v", args, err)
	}
	p.desc, _ = c.LookupDesc(p.id)
	p.cols = howide(p.desc.Type)
	if p.desc.Sem == pmapi.SemCounter && p.desc.Units.DimTime != 0 {
		st := float64(p.desc.Units.ScaleTime)
		if st > pmapi.TimeSec {
			p.scale = math.Pow(60, pmapi.TimeSec-st)
		} else {
			p.scale = math.Pow(1000, pmapi.TimeSec-st)
		}
	}
	if p.desc.InDom != pmapi.InDomNull {
		p.insts, _ = c.InDomArchive(p.desc.InDom)
		slices.SortFunc(p.insts, func(a, b pmapi.Instance) int { return int(a.ID) - int(b.ID) })
	}
	// pmval takes the archive's start and end from pmGetArchiveLabel and
	// pmGetArchiveEnd, as timevals: to the microsecond.
	start, end := c.Bounds()
	start -= start % 1000
	end -= end % 1000
	p.finish = float64(end.Sec()) + float64(end.Nsec())/1e9
	c.SetMode(pmapi.ModeInterp, start+pmapi.Time(offset), time.Duration(interval))
	p.run(samples)
	return p.out
}

// splitPmval splits pmval's output after its header, returning the lines
// that follow and the number of fetches the header announces; ok is
// false if there is no header (pmval failed).
func splitPmval(out string) (body string, samples int, ok bool) {
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	samples = -1
	for i, l := range lines {
		if n, found := strings.CutPrefix(l, "samples:"); found {
			samples, _ = strconv.Atoi(strings.TrimSpace(n))
		}
		if strings.HasPrefix(l, "interval:") {
			return strings.Join(lines[i+1:], "\n") + "\n", samples, samples >= 0
		}
	}
	return "", 0, false
}

// comparePmval compares pmval's output for args with ours, adding to the
// line counts.
func comparePmval(t *testing.T, dir string, args []string, want string, same, total *int) {
	body, samples, ok := splitPmval(want)
	if !ok {
		t.Errorf("pmval %s: no header in %q", strings.Join(args, " "), want)
		return
	}
	got := strings.Join(pmvalBody(t, dir, args, samples), "\n") + "\n"
	s, n, diff := compare(body, got)
	*same += s
	*total += n
	if diff != "" {
		t.Errorf("pmval %s: %d/%d lines same; %s", strings.Join(args, " "), s, n, diff)
	}
}

func TestGoldenPmval(t *testing.T) {
	cmds := goldenCommands(t, "pmval.cmds")
	if len(cmds) < 100 {
		t.Fatalf("only %d pmval goldens", len(cmds))
	}
	var same, total int
	for _, cmd := range cmds {
		comparePmval(t, archivesDir, cmd[1:], readGolden(t, "pmval", cmd[0]), &same, &total)
	}
	t.Logf("pmval: %d of %d value lines reproduced", same, total)
}
