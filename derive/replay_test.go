package derive

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

// replay is a pmapi.Context that plays back an archive described by a JSON
// file (testdata/derive/golden.json, written by mkarchive.py from what
// libpcp reads in the archive). It supports PM_MODE_FORW only, which is
// what the goldens use: each fetch returns the next record at or after
// the current time. Its namespace lists children in reverse order of
// first appearance, as libpcp builds an archive's namespace.
type replay struct {
	host, tz string
	metrics  []replayMetric
	byName   map[string]int
	byPMID   map[pmapi.PMID]int
	indoms   map[pmapi.InDom][]pmapi.Instance
	records  []replayRecord
	pos      pmapi.Time
	kids     map[string][]pmapi.Child
}

type replayMetric struct {
	name string
	desc pmapi.Desc
}

type replayRecord struct {
	t      pmapi.Time
	values map[pmapi.PMID][]pmapi.Value
}

// replays caches the archives loadReplay has read.
var (
	replaysMu sync.Mutex
	replays   = map[string]*replay{}
)

// loadReplay reads a replay archive description, returning a context of
// its own positioned at the start (archives read before are not read
// again: their contents never change).
func loadReplay(t testing.TB, path string) *replay {
	t.Helper()
	replaysMu.Lock()
	defer replaysMu.Unlock()
	if r, ok := replays[path]; ok {
		c := *r
		return &c
	}
	r := readReplay(t, path)
	replays[path] = r
	c := *r
	return &c
}

func readReplay(t testing.TB, path string) *replay {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var spec struct {
		Host, TZ string
		Indoms   map[string][][2]any
		Metrics  []struct {
			Name, PMID, Type, Indom, Sem string
			Units                        [6]int8
		}
		Records []struct {
			Sec, Nsec int64
			Values    map[string][][2]string
		}
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		t.Fatal(err)
	}
	r := &replay{host: spec.Host, tz: spec.TZ, byName: map[string]int{}, byPMID: map[pmapi.PMID]int{},
		indoms: map[pmapi.InDom][]pmapi.Instance{}, kids: map[string][]pmapi.Child{}}
	for key, insts := range spec.Indoms {
		indom := parseInDom(t, key)
		for _, in := range insts {
			r.indoms[indom] = append(r.indoms[indom], pmapi.Instance{ID: int32(in[0].(float64)), Name: in[1].(string)})
		}
	}
	for _, m := range spec.Metrics {
		d := pmapi.Desc{PMID: parsePMID(t, m.PMID), Type: parseType(t, m.Type), InDom: pmapi.InDomNull,
			Units: pmapi.Units{DimSpace: m.Units[0], DimTime: m.Units[1], DimCount: m.Units[2],
				ScaleSpace: m.Units[3], ScaleTime: m.Units[4], ScaleCount: m.Units[5]}}
		if m.Indom != "" {
			d.InDom = parseInDom(t, m.Indom)
		}
		d.Sem = map[string]pmapi.Sem{"counter": pmapi.SemCounter, "instant": pmapi.SemInstant, "discrete": pmapi.SemDiscrete}[m.Sem]
		r.byName[m.Name] = len(r.metrics)
		r.byPMID[d.PMID] = len(r.metrics)
		r.metrics = append(r.metrics, replayMetric{m.Name, d})
		r.addName(m.Name)
	}
	for _, rec := range spec.Records {
		out := replayRecord{t: pmapi.TimeOf(rec.Sec, rec.Nsec), values: map[pmapi.PMID][]pmapi.Value{}}
		for name, vals := range rec.Values {
			m := r.metrics[r.byName[name]]
			for _, v := range vals {
				inst := pmapi.InNull
				if v[0] != "" {
					inst = r.instID(m.desc.InDom, v[0])
				}
				out.values[m.desc.PMID] = append(out.values[m.desc.PMID], pmapi.Value{Inst: inst, Atom: parseAtom(t, m.desc.Type, v[1])})
			}
		}
		r.records = append(r.records, out)
	}
	r.pos = r.records[0].t
	return r
}

// addName adds a leaf to the namespace, each new child going first.
func (r *replay) addName(name string) {
	parent := ""
	parts := strings.Split(name, ".")
	for i, p := range parts {
		if !hasChild(r.kids[parent], p) {
			r.kids[parent] = append([]pmapi.Child{{Name: p, Leaf: i == len(parts)-1}}, r.kids[parent]...)
		}
		if parent == "" {
			parent = p
		} else {
			parent += "." + p
		}
	}
}

func (r *replay) instID(indom pmapi.InDom, name string) int32 {
	for _, in := range r.indoms[indom] {
		if in.Name == name {
			return in.ID
		}
	}
	panic("replay: unknown instance " + name)
}

func parsePMID(t testing.TB, s string) pmapi.PMID {
	var d, c, i uint32
	if _, err := fmt.Sscanf(s, "%d.%d.%d", &d, &c, &i); err != nil {
		t.Fatal(err)
	}
	return pmapi.NewPMID(d, c, i)
}

func parseInDom(t testing.TB, s string) pmapi.InDom {
	var d, i uint32
	if _, err := fmt.Sscanf(s, "%d.%d", &d, &i); err != nil {
		t.Fatal(err)
	}
	return pmapi.NewInDom(d, i)
}

func parseType(t testing.TB, s string) pmapi.Type {
	for ty := pmapi.Type32; ty <= pmapi.TypeString; ty++ {
		if ty.String() == s {
			return ty
		}
	}
	t.Fatalf("unknown type %q", s)
	return 0
}

// parseAtom reads a value as the goldens write it.
func parseAtom(t testing.TB, ty pmapi.Type, s string) pmapi.Atom {
	var err error
	var a pmapi.Atom
	switch ty {
	case pmapi.Type32:
		var v int64
		v, err = strconv.ParseInt(s, 10, 32)
		a = pmapi.I32(int32(v))
	case pmapi.TypeU32:
		var v uint64
		v, err = strconv.ParseUint(s, 10, 32)
		a = pmapi.U32(uint32(v))
	case pmapi.Type64:
		var v int64
		v, err = strconv.ParseInt(s, 10, 64)
		a = pmapi.I64(v)
	case pmapi.TypeU64:
		var v uint64
		v, err = strconv.ParseUint(s, 10, 64)
		a = pmapi.U64(v)
	case pmapi.TypeFloat:
		var v float64
		v, err = strconv.ParseFloat(s, 64)
		a = pmapi.F32(float32(v))
	case pmapi.TypeDouble:
		var v float64
		v, err = strconv.ParseFloat(s, 64)
		a = pmapi.F64(v)
	default:
		if strings.HasPrefix(s, `"`) {
			s, err = strconv.Unquote(s)
		}
		a = pmapi.String(s)
	}
	if err != nil {
		t.Fatalf("value %q of type %v: %v", s, ty, err)
	}
	return a
}

func (r *replay) Source() pmapi.Source {
	return pmapi.Source{Kind: pmapi.SourceArchive, Host: r.host, Name: "golden", TZ: r.tz}
}

func (r *replay) LookupName(name string) (pmapi.PMID, error) {
	if i, ok := r.byName[name]; ok {
		return r.metrics[i].desc.PMID, nil
	}
	if _, ok := r.kids[name]; ok {
		return pmapi.PMIDNull, pmapi.ErrNonLeaf
	}
	return pmapi.PMIDNull, pmapi.ErrName
}

func (r *replay) NameAll(id pmapi.PMID) ([]string, error) {
	if i, ok := r.byPMID[id]; ok {
		return []string{r.metrics[i].name}, nil
	}
	return nil, pmapi.ErrPMID
}

func (r *replay) Children(name string) ([]pmapi.Child, error) {
	if k, ok := r.kids[name]; ok {
		return append([]pmapi.Child(nil), k...), nil
	}
	if _, ok := r.byName[name]; ok {
		return nil, nil
	}
	return nil, pmapi.ErrName
}

func (r *replay) LookupDesc(id pmapi.PMID) (pmapi.Desc, error) {
	if i, ok := r.byPMID[id]; ok {
		return r.metrics[i].desc, nil
	}
	return pmapi.Desc{}, pmapi.ErrPMIDLog
}

func (r *replay) InDom(indom pmapi.InDom) ([]pmapi.Instance, error) {
	if insts, ok := r.indoms[indom]; ok {
		return insts, nil
	}
	return nil, pmapi.ErrInDomLog
}

func (r *replay) Text(uint32, pmapi.TextKind) (string, error) { return "", pmapi.ErrText }

func (r *replay) Labels(pmapi.LabelFlag, uint32) ([]pmapi.LabelSet, error) {
	return nil, pmapi.ErrNoLabels
}

// Fetch returns the next record at or after the current time that has
// values for any of ids (libpcp skips the others, unless every PMID asked
// for is a derived metric's).
func (r *replay) Fetch(ids []pmapi.PMID, res *pmapi.Result) error {
	var rec *replayRecord
	for i := range r.records {
		if r.records[i].t >= r.pos && r.records[i].hasAny(ids) {
			rec = &r.records[i]
			break
		}
	}
	if rec == nil {
		return pmapi.ErrEOL
	}
	r.pos = rec.t + 1
	res.Reset()
	res.Time = rec.t
	for _, id := range ids {
		vs := pmapi.ValueSet{PMID: id}
		if _, ok := r.byPMID[id]; !ok {
			vs.Err = pmapi.ErrPMID
		}
		vs.Values = append(vs.Values, rec.values[id]...)
		res.Sets = append(res.Sets, vs)
	}
	return nil
}

func (rec *replayRecord) hasAny(ids []pmapi.PMID) bool {
	all := true
	for _, id := range ids {
		if len(rec.values[id]) > 0 {
			return true
		}
		all = all && IsDerived(id)
	}
	return all
}

func (r *replay) Close() error { return nil }

func (r *replay) SetMode(mode pmapi.Mode, t pmapi.Time, delta time.Duration) error {
	if mode != pmapi.ModeForw {
		return pmapi.ErrMode
	}
	r.pos = t
	return nil
}

func (r *replay) Bounds() (start, end pmapi.Time) {
	return r.records[0].t, r.records[len(r.records)-1].t
}
