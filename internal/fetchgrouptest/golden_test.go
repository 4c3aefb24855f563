package fetchgrouptest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/derive"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/archive"
	"github.com/gopcp/pmie/pmapi/fetchgroup"
)

// The goldens of testdata/golden/fetchgroup are libpcp's fetchgroups run
// over the scenarios of scenarios.json by oracle.py; these tests run the
// same scenarios through Group and print them the same way.

const goldenDir = "../../testdata/golden/fetchgroup"

type scenario struct {
	Name    string `json:"name"`
	Archive string `json:"archive"`
	Mode    string `json:"mode"`
	Origin  int64  `json:"origin_ns"`
	Delta   int64  `json:"delta_ns"`
	Fetches int    `json:"fetches"`
	Items   []spec `json:"items"`
	// Env is the environment libpcp ran with (PCP_COUNTER_WRAP).
	Env map[string]string `json:"env"`
	// Derived is the derived metrics registered, name and expression.
	Derived [][2]string `json:"derived"`
	// ClearAt is the fetches after which the group is cleared and its
	// items added again.
	ClearAt []int `json:"clear_at"`
}

type spec struct {
	Kind     string  `json:"kind"`
	Metric   *string `json:"metric"`
	Instance *string `json:"instance"`
	Scale    *string `json:"scale"`
	Type     *string `json:"type"`
	MaxNum   *int    `json:"maxnum"`
}

func (s spec) describe() string {
	var b strings.Builder
	b.WriteString(s.Kind)
	field := func(k string, v *string) {
		if v != nil {
			fmt.Fprintf(&b, " %s=%q", k, *v)
		}
	}
	field("metric", s.Metric)
	field("instance", s.Instance)
	field("scale", s.Scale)
	field("type", s.Type)
	if s.MaxNum != nil {
		fmt.Fprintf(&b, " maxnum=%d", *s.MaxNum)
	}
	return b.String()
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

var typeNames = map[string]pmapi.Type{
	"32": pmapi.Type32, "U32": pmapi.TypeU32, "64": pmapi.Type64, "U64": pmapi.TypeU64,
	"FLOAT": pmapi.TypeFloat, "DOUBLE": pmapi.TypeDouble, "STRING": pmapi.TypeString,
	"AGGREGATE": pmapi.TypeAggregate, "EVENT": pmapi.TypeEvent,
}

func loadScenarios(t testing.TB) []scenario {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(goldenDir, "scenarios.json"))
	if err != nil {
		t.Fatal(err)
	}
	var scs []scenario
	if err := json.Unmarshal(b, &scs); err != nil {
		t.Fatal(err)
	}
	return scs
}

// stsString prints a status as the oracle does.
func stsString(err error) string {
	if err == nil {
		return "0"
	}
	c := pmapi.Code(err)
	return fmt.Sprintf("%d:%s", int32(c), c.Error())
}

// atomString prints a value as the oracle prints a pmAtomValue of typ.
func atomString(a pmapi.Atom, typ string) string {
	switch typ {
	case "32", "64":
		return fmt.Sprint(a.Int64())
	case "U32", "U64":
		return fmt.Sprint(a.Uint64())
	case "FLOAT":
		return pmapi.FormatG(float64(a.Float32()), 9)
	case "DOUBLE":
		return pmapi.FormatG(a.Float64(), 17)
	}
	if fetchgroup.IsNull(a) {
		return "NULL"
	}
	return `"` + a.Str() + `"`
}

type registered struct {
	i    int
	s    spec
	ts   *fetchgroup.Timestamp
	item *fetchgroup.Item
	dom  *fetchgroup.InDomItem
}

// runScenario runs sc and returns its output lines.
func runScenario(t testing.TB, sc scenario) []string {
	t.Helper()
	_, wrap := sc.Env["PCP_COUNTER_WRAP"]
	actx, err := archive.Open(filepath.Join("../../testdata/archives", sc.Archive), archive.Options{CounterWrap: wrap})
	if err != nil {
		t.Fatal(err)
	}
	var ctx pmapi.Context = actx
	if len(sc.Derived) > 0 {
		reg := derive.NewRegistry()
		for _, d := range sc.Derived {
			_ = reg.Register(d[0], d[1]) // a bad one fails when added, as in libpcp
		}
		ctx, _ = derive.Wrap(ctx, reg)
	}
	clock := time.Date(2030, 1, 2, 3, 4, 5, 6, time.UTC)
	g := fetchgroup.New(ctx, fetchgroup.Options{CounterWrap: wrap, Now: func() time.Time { return clock }})
	defer g.Close()
	start, _ := actx.Bounds()
	origin := start.Add(time.Duration(sc.Origin))
	if sc.Mode == "interp" {
		err = g.SetMode(pmapi.ModeInterp, origin, time.Duration(sc.Delta))
	} else {
		err = g.SetMode(pmapi.ModeForw, origin, 0)
	}
	if err != nil {
		t.Fatal(err)
	}
	out := []string{"scenario " + sc.Name}
	regs, out := extendAll(g, sc, out)
	for n := 0; n < sc.Fetches; n++ {
		ferr := g.Fetch()
		out = append(out, fmt.Sprintf("fetch %d: %s", n, stsString(ferr)))
		for _, r := range regs {
			out = append(out, r.lines(t, ferr != nil, clock)...)
		}
		if slices.Contains(sc.ClearAt, n) {
			g.Clear()
			out = append(out, "clear")
			regs, out = extendAll(g, sc, out)
		}
	}
	return out
}

// extendAll adds the items of sc to g, printing what each gives.
func extendAll(g *fetchgroup.Group, sc scenario, out []string) ([]registered, []string) {
	var regs []registered
	for i, s := range sc.Items {
		r := registered{i: i, s: s}
		var err error
		switch s.Kind {
		case "timespec", "timeval":
			r.ts = g.ExtendTimestamp()
		case "item":
			r.item, err = g.ExtendItem(str(s.Metric), str(s.Instance), str(s.Scale), typeNames[str(s.Type)])
		default:
			r.dom, err = g.ExtendInDom(str(s.Metric), str(s.Scale), typeNames[str(s.Type)], *s.MaxNum)
		}
		if err != nil {
			out = append(out, fmt.Sprintf("extend [%d] %s: %s", i, s.describe(), stsString(err)))
			continue
		}
		out = append(out, fmt.Sprintf("extend [%d] %s: ok", i, s.describe()))
		regs = append(regs, r)
	}
	return regs, out
}

func (r registered) lines(t testing.TB, failed bool, clock time.Time) []string {
	switch {
	case r.ts != nil:
		tm := r.ts.Time
		if failed && tm != 0 {
			if tm != pmapi.FromStd(clock) {
				t.Errorf("[%d] failed fetch's time %d is not the clock's", r.i, tm)
			}
			return []string{fmt.Sprintf("  [%d] %s <now>", r.i, r.s.Kind)}
		}
		if r.s.Kind == "timeval" {
			return []string{fmt.Sprintf("  [%d] timeval %d.%06d", r.i, tm.Sec(), tm.Nsec()/1000)}
		}
		return []string{fmt.Sprintf("  [%d] timespec %d.%09d", r.i, tm.Sec(), tm.Nsec())}
	case r.item != nil:
		return []string{fmt.Sprintf("  [%d] sts=%s value=%s", r.i, stsString(r.item.Err), atomString(r.item.Value, *r.s.Type))}
	}
	d := r.dom
	out := []string{fmt.Sprintf("  [%d] sts=%s num=%d", r.i, stsString(d.Err), d.Num)}
	shown := d.Num
	if len(d.Insts) <= 5 {
		shown = len(d.Insts)
	}
	for j := 0; j < shown; j++ {
		in := d.Insts[j]
		name := "NULL"
		if in.Named {
			name = `"` + in.Name + `"`
		}
		out = append(out, fmt.Sprintf("    [%d] inst=%d name=%s sts=%s value=%s", j, in.Inst, name, stsString(in.Err), atomString(in.Value, *r.s.Type)))
	}
	return out
}

// TestGoldens compares every line each scenario prints with libpcp's.
func TestGoldens(t *testing.T) {
	same, total := 0, 0
	for _, sc := range loadScenarios(t) {
		t.Run(sc.Name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(goldenDir, sc.Name+".golden"))
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			got := runScenario(t, sc)
			shown := 0
			for i := 0; i < max(len(want), len(got)); i++ {
				var w, g string
				if i < len(want) {
					w = want[i]
				}
				if i < len(got) {
					g = got[i]
				}
				total++
				if w == g {
					same++
					continue
				}
				if shown++; shown <= 15 {
					t.Errorf("line %d:\n got %s\nwant %s", i+1, g, w)
				}
			}
		})
	}
	t.Logf("%d of %d lines identical to libpcp's", same, total)
}
