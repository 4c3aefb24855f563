package archive

import (
	"github.com/gopcp/pmie/pmapi"
)

// The metadata record types (TYPE_* in libpcp).
const (
	metaDesc       = 1
	metaInDomV2    = 2
	metaLabelV2    = 3
	metaText       = 4
	metaInDom      = 5
	metaInDomDelta = 6
	metaLabel      = 7
)

// Help text flags as archives store them.
const (
	textOneLine = 1
	textHelp    = 2
	textPMID    = 4
	textInDom   = 8
	textDirect  = 16
)

// meta is the metadata of one or more archives: what libpcp keeps in its
// per-context hash tables after loading each archive's .meta file.
type meta struct {
	descs  map[pmapi.PMID]pmapi.Desc
	pmns   *pmns
	indoms map[pmapi.InDom]*indomHistory
	labels map[labelKey]*labelHistory
	texts  map[textKey]string
	kinds  map[uint32]bool // the help text kinds present
	seq    int             // load order of indom records, across archives
	// note, while loading, is told of damage libpcp passes over quietly
	// (see integrity.go); nil for none.
	note func(*FormatError)
	// bounds, while loading with note set, collects the offsets where
	// records start, and the end of the last.
	bounds []int64
}

type textKey struct {
	kind  uint32 // PM_TEXT_* flags, without PM_TEXT_DIRECT
	ident uint32
}

func newMeta() *meta {
	return &meta{
		descs:  make(map[pmapi.PMID]pmapi.Desc),
		pmns:   newPMNS(),
		indoms: make(map[pmapi.InDom]*indomHistory),
		labels: make(map[labelKey]*labelHistory),
		texts:  make(map[textKey]string),
		kinds:  make(map[uint32]bool),
	}
}

// load adds the records of the metadata file f, whose contents are d,
// as __pmLogLoadMeta does for each archive of a context.
func (m *meta) load(f *file, d []byte) error {
	off := labelSize(f.label.Version)
	ndesc := 0
	for off < len(d) {
		if len(d)-off < 8 {
			// libpcp stops quietly at a partial record header.
			m.noted(f.errorf(int64(off), pmapi.ErrLogRec, "a partial record header of %d bytes at the end (ignored)", len(d)-off))
			break
		}
		size := int(be.Uint32(d[off:]))
		typ := be.Uint32(d[off+4:])
		if size < 12 || size > len(d)-off {
			if size > len(d)-off {
				return f.errorf(int64(off), pmapi.ErrLogRec, "truncated metadata record: length %d, only %d bytes left", size, len(d)-off)
			}
			return f.errorf(int64(off), pmapi.ErrLogRec, "bad metadata record length %d", size)
		}
		if trail := int(be.Uint32(d[off+size-4:])); trail != size {
			return f.errorf(int64(off+size-4), pmapi.ErrLogRec, "metadata record trailer length %d does not match header %d", trail, size)
		}
		if m.note != nil {
			m.bounds = append(m.bounds, int64(off))
		}
		body := d[off+8 : off+size-4]
		var err error
		switch typ {
		case metaDesc:
			ndesc++
			err = m.loadDesc(f, off, body)
		case metaInDomV2, metaInDom, metaInDomDelta:
			err = m.loadInDom(f, off, typ, body)
		case metaLabelV2, metaLabel:
			err = m.loadLabels(f, off, typ, body)
		case metaText:
			err = m.loadText(f, off, body)
		default:
			err = f.errorf(int64(off+4), pmapi.ErrRecType, "unknown metadata record type %d", typ)
		}
		if err != nil {
			return err
		}
		off += size
	}
	if ndesc == 0 {
		return f.errorf(int64(off), pmapi.ErrLogRec, "no metric descriptors")
	}
	if m.note != nil {
		m.bounds = append(m.bounds, int64(off))
	}
	m.pmns.late = true
	return nil
}

// loadDesc decodes a metric descriptor and its names.
func (m *meta) loadDesc(f *file, off int, b []byte) error {
	if len(b) < 24 {
		return f.errorf(int64(off), pmapi.ErrLogRec, "descriptor record too short (%d bytes)", len(b))
	}
	desc := pmapi.Desc{
		PMID:  pmapi.PMID(be.Uint32(b)),
		Type:  pmapi.Type(int32(be.Uint32(b[4:]))),
		InDom: pmapi.InDom(be.Uint32(b[8:])),
		Sem:   pmapi.Sem(int32(be.Uint32(b[12:]))),
		Units: pmapi.UnpackUnits(be.Uint32(b[16:])),
	}
	if !knownType(desc.Type) || (desc.Sem != pmapi.SemCounter && desc.Sem != pmapi.SemInstant && desc.Sem != pmapi.SemDiscrete) {
		m.noted(f.errorf(int64(off+8), pmapi.ErrLogRec, "descriptor for %s has type %d and semantics %d, which PCP does not define", desc.PMID, int32(desc.Type), int32(desc.Sem)))
	}
	if old, ok := m.descs[desc.PMID]; ok {
		if code := descConflict(old, desc); code != 0 {
			return f.errorf(int64(off+8), code, "descriptor for %s differs from an earlier one: %v", desc.PMID, code)
		}
	} else {
		m.descs[desc.PMID] = desc
	}
	n := int32(be.Uint32(b[20:]))
	p := 24
	for i := int32(0); i < n; i++ {
		if len(b)-p < 4 {
			return f.errorf(int64(off+8+p), pmapi.ErrLogRec, "descriptor for %s: name %d of %d missing", desc.PMID, i+1, n)
		}
		l := int(int32(be.Uint32(b[p:])))
		p += 4
		if l < 0 || l > len(b)-p {
			return f.errorf(int64(off+8+p-4), pmapi.ErrLogRec, "descriptor for %s: bad name length %d", desc.PMID, l)
		}
		m.pmns.add(string(b[p:p+l]), desc.PMID)
		p += l
	}
	return nil
}

// noted reports damage passed over, if anyone is listening.
func (m *meta) noted(err *FormatError) {
	if m.note != nil {
		m.note(err)
	}
}

// knownType reports whether t is one of PCP's metric types.
func knownType(t pmapi.Type) bool {
	return (t >= pmapi.TypeNoSupport && t <= pmapi.TypeHighresEvent) || t == pmapi.TypeUnknown
}

// descConflict says which PM_ERR_LOGCHANGE* error libpcp gives when a
// metric is described twice, differently.
func descConflict(a, b pmapi.Desc) pmapi.Errno {
	switch {
	case a.Type != b.Type:
		return pmapi.ErrLogChangeType
	case a.Sem != b.Sem:
		return pmapi.ErrLogChangeSem
	case a.InDom != b.InDom:
		return pmapi.ErrLogChangeInDom
	case a.Units != b.Units:
		return pmapi.ErrLogChangeUnits
	}
	return 0
}

// loadText decodes a help text record; a later text replaces an earlier
// one for the same metric or instance domain.
func (m *meta) loadText(f *file, off int, b []byte) error {
	if len(b) < 8 {
		return f.errorf(int64(off), pmapi.ErrLogRec, "help text record too short (%d bytes)", len(b))
	}
	kind := be.Uint32(b)
	if kind&(textOneLine|textHelp) == 0 || kind&(textPMID|textInDom) == 0 {
		// libpcp skips these quietly.
		m.noted(f.errorf(int64(off+8), pmapi.ErrLogRec, "help text of unknown kind %#x (ignored)", kind))
		return nil
	}
	m.texts[textKey{kind &^ textDirect, be.Uint32(b[4:])}] = cstring(b[8:])
	m.kinds[kind&^textDirect] = true
	return nil
}

// text looks up help text as pmLookupText does for an archive, falling
// back from the full help text to the one-line text.
func (m *meta) text(ident uint32, kind uint32) (string, error) {
	for {
		s, err := m.textOnce(ident, kind)
		if (err != nil || s == "") && kind&textDirect == 0 && kind&textHelp != 0 {
			kind = kind&^textHelp | textOneLine
			continue
		}
		return s, err
	}
}

func (m *meta) textOnce(ident uint32, kind uint32) (string, error) {
	kind &^= textDirect
	s, ok := m.texts[textKey{kind, ident}]
	if ok {
		return s, nil
	}
	if m.kinds[kind] {
		return "", pmapi.ErrText
	}
	// libpcp's answer when the archive has no text of this kind at all.
	return "", pmapi.ErrNotHost
}
