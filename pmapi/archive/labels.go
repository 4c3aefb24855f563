package archive

import (
	"github.com/gopcp/pmie/pmapi"
)

// labelKey identifies the labels of one entity: the level (a
// PM_LABEL_* type, without the compound and optional flags) and the
// identifier at that level (PM_ID_NULL for the context).
type labelKey struct {
	level pmapi.LabelFlag
	ident uint32
}

type labelSnap struct {
	time pmapi.Time
	sets []pmapi.LabelSet
}

// labelHistory is every label record for one entity, newest first.
type labelHistory struct {
	snaps []labelSnap
}

const (
	maxLabels       = 255       // PM_MAXLABELS
	maxLabelJSONLen = 1<<16 - 1 // PM_MAXLABELJSONLEN
	labelLevelMask  = pmapi.LabelContext | pmapi.LabelDomain | pmapi.LabelInDom | pmapi.LabelCluster | pmapi.LabelItem | pmapi.LabelInstances
)

// loadLabels decodes a label record (v2 or v3).
func (m *meta) loadLabels(f *file, off int, typ uint32, b []byte) error {
	var t pmapi.Time
	p := 8
	if typ == metaLabelV2 {
		if len(b) < 20 {
			return f.errorf(int64(off), pmapi.ErrLogRec, "label record too short (%d bytes)", len(b))
		}
		t = stamp2(b)
	} else {
		p = 12
		if len(b) < 24 {
			return f.errorf(int64(off), pmapi.ErrLogRec, "label record too short (%d bytes)", len(b))
		}
		t = stamp3(b)
	}
	level := pmapi.LabelFlag(be.Uint32(b[p:])) &^ (pmapi.LabelCompound | pmapi.LabelOptional)
	ident := be.Uint32(b[p+4:])
	nsets := int(int32(be.Uint32(b[p+8:])))
	p += 12
	at := func(p int) int64 { return int64(off + 8 + p) }
	if nsets < 0 || nsets > len(b) {
		return f.errorf(at(p-4), pmapi.ErrLogRec, "bad label set count %d", nsets)
	}
	sets := make([]pmapi.LabelSet, 0, nsets)
	for i := 0; i < nsets; i++ {
		if len(b)-p < 8 {
			return f.errorf(at(p), pmapi.ErrLogRec, "label set %d of %d truncated", i+1, nsets)
		}
		set := pmapi.LabelSet{Inst: int32(be.Uint32(b[p:]))}
		jlen := int(int32(be.Uint32(b[p+4:])))
		p += 8
		if jlen < 0 || jlen > maxLabelJSONLen || jlen > len(b)-p-4 {
			return f.errorf(at(p-4), pmapi.ErrLogRec, "bad label JSON length %d", jlen)
		}
		json := b[p : p+jlen]
		p += jlen
		nl := int(int32(be.Uint32(b[p:])))
		p += 4
		if nl > maxLabels || (nl > 0 && nl*8 > len(b)-p) {
			return f.errorf(at(p-4), pmapi.ErrLogRec, "bad label count %d", nl)
		}
		for j := 0; j < nl; j++ {
			l := b[p:]
			name, nlen := int(be.Uint16(l)), int(l[2])
			value, vlen := int(be.Uint16(l[4:])), int(be.Uint16(l[6:]))
			if name+nlen > len(json) || value+vlen > len(json) {
				return f.errorf(at(p), pmapi.ErrLogRec, "label %d of set %d lies outside its JSON", j+1, i+1)
			}
			set.Labels = append(set.Labels, pmapi.Label{
				Name:  string(json[name : name+nlen]),
				Value: string(json[value : value+vlen]),
				Flags: pmapi.LabelFlag(l[3]),
			})
			p += 8
		}
		sets = append(sets, set)
	}
	if level == pmapi.LabelContext {
		ident = uint32(pmapi.PMIDNull)
	}
	m.addLabels(labelKey{level, ident}, labelSnap{t, sets})
	return nil
}

// addLabels files a label record as libpcp's addlabel does: newest first,
// a record with the same time as others going after them. A history
// whose newest record has no sets is replaced rather than extended.
func (m *meta) addLabels(k labelKey, s labelSnap) {
	h := m.labels[k]
	if h == nil || len(h.snaps[0].sets) == 0 {
		m.labels[k] = &labelHistory{snaps: []labelSnap{s}}
		return
	}
	i := 0
	for i < len(h.snaps) && h.snaps[i].time >= s.time {
		i++
	}
	h.snaps = append(h.snaps, labelSnap{})
	copy(h.snaps[i+1:], h.snaps[i:])
	h.snaps[i] = s
}

// dedupLabels drops, from each label record, the sets that are the same
// in the record before it, and records left empty, as libpcp does once
// an archive's metadata is loaded.
func (m *meta) dedupLabels() {
	for _, h := range m.labels {
		out := h.snaps[:0]
		for i, s := range h.snaps {
			if i+1 < len(h.snaps) {
				older := h.snaps[i+1].sets
				kept := s.sets[:0:0]
				for _, set := range s.sets {
					if !containsSet(older, set) {
						kept = append(kept, set)
					}
				}
				if len(kept) == 0 {
					continue
				}
				s.sets = kept
			}
			out = append(out, s)
		}
		h.snaps = out
	}
}

func containsSet(sets []pmapi.LabelSet, set pmapi.LabelSet) bool {
	for _, s := range sets {
		if sameLabelSet(s, set) {
			return true
		}
	}
	return false
}

// sameLabelSet reports whether two sets are for the same instance and
// hold the same names with the same values.
func sameLabelSet(a, b pmapi.LabelSet) bool {
	if a.Inst != b.Inst || len(a.Labels) != len(b.Labels) {
		return false
	}
	for _, la := range a.Labels {
		found := false
		for _, lb := range b.Labels {
			if la.Name == lb.Name {
				if la.Value != lb.Value {
					return false
				}
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// labelsAt returns the label sets of entity k in force at the time before
// accepts (the newest record it accepts), and
// whether the archive has any labels for k at all.
func (m *meta) labelsAt(k labelKey, before func(pmapi.Time) bool) ([]pmapi.LabelSet, bool) {
	h := m.labels[k]
	if h == nil {
		return nil, false
	}
	for _, s := range h.snaps {
		if before(s.time) {
			return s.sets, true
		}
	}
	return nil, true
}
