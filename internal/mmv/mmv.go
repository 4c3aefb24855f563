// Package mmv writes Memory Mapped Value files, PCP's way for a program
// to export its own metrics: the program updates values in a file it has
// mapped, and pmcd's mmv PMDA serves them, as mmv.FILE.NAME, from the
// same file (see the Programmer's Guide, "Instrumenting Applications",
// and mmv(5)).
//
// It writes version 2 of the format (names and instance names as string
// offsets, so neither is cut at 63 bytes). Layout, all little-endian as
// on the machines this runs on, and every offset from the file's start:
//
//	header   40 bytes: "MMV\0", version, generation g1 and g2 (equal and
//	         not zero once the file is complete), number of TOC entries,
//	         flags, process ID, cluster
//	toc      16 bytes each: section type, count, offset
//	indoms   32 bytes each: serial, instance count, offset of the first
//	         instance, offsets of the one-line and long help strings
//	insts    24 bytes each: offset of its indom, padding, internal ID,
//	         offset of its name string
//	metrics  48 bytes each: offset of its name string, item, type,
//	         semantics, units (pmUnits as PCP packs them), indom serial,
//	         padding, offsets of its help strings
//	values   32 bytes each: the value (8 bytes), extra, offset of its
//	         metric, offset of its instance (0 without an indom)
//	strings  256 bytes each, NUL-terminated
//
// It does not read MMV files, nor support labels (version 3), strings or
// elapsed-time values.
package mmv

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"github.com/gopcp/pmie/pmapi"
)

// Type is a value's type (PCP's PM_TYPE_ numbers).
type Type uint32

// The value types supported.
const (
	U64    Type = 3 // PM_TYPE_U64
	Double Type = 5 // PM_TYPE_DOUBLE
)

// Sem is a value's semantics (PCP's PM_SEM_ numbers).
type Sem uint32

// The semantics.
const (
	Counter  Sem = 1
	Instant  Sem = 3
	Discrete Sem = 4
)

// Metric describes one metric of a file.
type Metric struct {
	Name        string // below mmv.FILE.; letters, digits, _ and .
	Item        uint32 // unique in the file, below 1024
	Type        Type
	Sem         Sem
	Units       pmapi.Units
	Indom       uint32 // serial of its instance domain; 0 for none
	Short, Help string
}

// Indom is an instance domain of a file.
type Indom struct {
	Serial      uint32 // not 0
	Instances   []Instance
	Short, Help string
}

// Instance is one instance of a domain.
type Instance struct {
	ID   int32
	Name string
}

// Sizes of the parts of the format.
const (
	headerSize = 40
	tocSize    = 16
	indomSize  = 32
	instSize   = 24
	metricSize = 48
	valueSize  = 32
	stringSize = 256

	version2     = 2
	flagProcess  = 0x2
	maxCount     = 10000 // the PMDA ignores sections longer than this
	maxItem      = 1<<10 - 1
	maxNameBytes = stringSize - 1
)

// TOC section types.
const (
	tocIndoms    = 1
	tocInstances = 2
	tocMetrics   = 3
	tocValues    = 4
	tocStrings   = 5
)

// File is an MMV file, mapped for its values to be updated.
type File struct {
	path   string
	data   []byte
	values map[valueKey]int // offset of each value
}

type valueKey struct{ metric, inst string }

// Create writes an MMV file at path (its directory must exist) with the
// metrics and instance domains given, all values zero, and maps it for
// updates. The file is written beside path and renamed over it, so the
// PMDA never sees it half written; it carries this process's ID, so the
// PMDA drops it once the process is gone.
func Create(path string, cluster uint32, metrics []Metric, indoms []Indom) (*File, error) {
	l, err := plan(metrics, indoms)
	if err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing to remove
	err = tmp.Truncate(int64(l.size))
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	var data []byte
	if err == nil {
		data, err = syscall.Mmap(int(tmp.Fd()), 0, l.size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	}
	tmp.Close()
	if err != nil {
		return nil, fmt.Errorf("mmv: %s: %w", path, err)
	}
	f := &File{path: path, data: data, values: map[valueKey]int{}}
	l.write(f, cluster, metrics, indoms)
	if err := os.Rename(tmp.Name(), path); err != nil {
		syscall.Munmap(data)
		return nil, fmt.Errorf("mmv: %w", err)
	}
	return f, nil
}

// layout is where each section of a file goes.
type layout struct {
	tocs                                          int
	indoms, insts, metrics, values, strings, size int
	ninsts, nvalues, nstrings                     int
	indomOf                                       map[uint32]*Indom
}

// plan checks the description of a file and lays it out.
func plan(metrics []Metric, indoms []Indom) (*layout, error) {
	l := &layout{indomOf: map[uint32]*Indom{}}
	for i := range indoms {
		d := &indoms[i]
		if d.Serial == 0 || l.indomOf[d.Serial] != nil {
			return nil, fmt.Errorf("mmv: instance domain serial %d is 0 or used twice", d.Serial)
		}
		l.indomOf[d.Serial] = d
		l.ninsts += len(d.Instances)
		l.nstrings += 2 + len(d.Instances)
	}
	items := map[uint32]bool{}
	for _, m := range metrics {
		switch {
		case m.Name == "" || len(m.Name) > maxNameBytes:
			return nil, fmt.Errorf("mmv: metric name %q is empty or too long", m.Name)
		case m.Item > maxItem || items[m.Item]:
			return nil, fmt.Errorf("mmv: metric %s: item %d is too large or used twice", m.Name, m.Item)
		case m.Indom != 0 && l.indomOf[m.Indom] == nil:
			return nil, fmt.Errorf("mmv: metric %s: no instance domain %d", m.Name, m.Indom)
		}
		items[m.Item] = true
		l.nstrings += 3
		if m.Indom != 0 {
			l.nvalues += len(l.indomOf[m.Indom].Instances)
		} else {
			l.nvalues++
		}
	}
	if len(metrics) > maxCount || l.nvalues > maxCount || l.ninsts > maxCount {
		return nil, errors.New("mmv: more than 10000 metrics, instances or values")
	}
	l.tocs = 3 // metrics, values, strings
	if len(indoms) > 0 {
		l.tocs += 2
	}
	off := headerSize + l.tocs*tocSize
	next := func(n, size int) int {
		at := off
		off += n * size
		return at
	}
	l.indoms = next(len(indoms), indomSize)
	l.insts = next(l.ninsts, instSize)
	l.metrics = next(len(metrics), metricSize)
	l.values = next(l.nvalues, valueSize)
	l.strings = next(l.nstrings, stringSize)
	l.size = off
	return l, nil
}

// write fills the mapped file f as laid out, the generation numbers last.
func (l *layout) write(f *File, cluster uint32, metrics []Metric, indoms []Indom) {
	w := &writer{l: l, f: f, b: f.data, str: l.strings, toc: headerSize}
	w.header(cluster, len(metrics), len(indoms))
	instAt := w.indoms(indoms)
	w.metrics(metrics, instAt)
	gen := uint64(time.Now().UnixNano())
	atomic.StoreUint64(f.word(8), gen)
	atomic.StoreUint64(f.word(16), gen)
}

// writer fills a mapped file section by section: it keeps where the next
// string and the next TOC entry go.
type writer struct {
	l   *layout
	f   *File
	b   []byte
	str int // offset of the next string
	toc int // offset of the next TOC entry
}

// le is the byte order of the format.
var le = binary.LittleEndian

// putString writes s (cut to the longest name the format holds) as the
// next string and returns its offset, or 0 for an empty s, which takes no
// string.
func (w *writer) putString(s string) uint64 {
	if s == "" {
		return 0
	}
	if len(s) > maxNameBytes {
		s = s[:maxNameBytes]
	}
	at := w.str
	copy(w.b[at:at+stringSize-1], s)
	w.str += stringSize
	return uint64(at)
}

// putTOC writes the next TOC entry: a section's type, count and offset.
func (w *writer) putTOC(typ, count, offset int) {
	le.PutUint32(w.b[w.toc:], uint32(typ))
	le.PutUint32(w.b[w.toc+4:], uint32(count))
	le.PutUint64(w.b[w.toc+8:], uint64(offset))
	w.toc += tocSize
}

// header writes the header, without its generation numbers, and the TOC
// of a file of nmetrics metrics and nindoms instance domains.
func (w *writer) header(cluster uint32, nmetrics, nindoms int) {
	b, l := w.b, w.l
	copy(b[0:4], "MMV\x00")
	le.PutUint32(b[4:], version2)
	le.PutUint32(b[24:], uint32(l.tocs))
	le.PutUint32(b[28:], flagProcess)
	le.PutUint32(b[32:], uint32(os.Getpid()))
	le.PutUint32(b[36:], cluster)
	if nindoms > 0 {
		w.putTOC(tocIndoms, nindoms, l.indoms)
		w.putTOC(tocInstances, l.ninsts, l.insts)
	}
	w.putTOC(tocMetrics, nmetrics, l.metrics)
	w.putTOC(tocValues, l.nvalues, l.values)
	w.putTOC(tocStrings, l.nstrings, l.strings)
}

// indoms writes the instance domains and their instances, and returns
// the offset of each instance by its domain's serial.
func (w *writer) indoms(indoms []Indom) map[uint32][]int {
	b, l := w.b, w.l
	instAt := map[uint32][]int{} // serial -> offset of each instance
	in := l.insts
	for i := range indoms {
		d := &indoms[i]
		at := l.indoms + i*indomSize
		le.PutUint32(b[at:], d.Serial)
		le.PutUint32(b[at+4:], uint32(len(d.Instances)))
		le.PutUint64(b[at+8:], uint64(in))
		le.PutUint64(b[at+16:], w.putString(d.Short))
		le.PutUint64(b[at+24:], w.putString(d.Help))
		for _, inst := range d.Instances {
			le.PutUint64(b[in:], uint64(at))
			le.PutUint32(b[in+12:], uint32(inst.ID))
			le.PutUint64(b[in+16:], w.putString(inst.Name))
			instAt[d.Serial] = append(instAt[d.Serial], in)
			in += instSize
		}
	}
	return instAt
}

// metrics writes the metrics and their values (one per instance of its
// domain, at instAt), noting where each value is for File.Value.
func (w *writer) metrics(metrics []Metric, instAt map[uint32][]int) {
	b, l, f := w.b, w.l, w.f
	val := l.values
	for i, m := range metrics {
		at := l.metrics + i*metricSize
		le.PutUint64(b[at:], w.putString(m.Name))
		le.PutUint32(b[at+8:], m.Item)
		le.PutUint32(b[at+12:], uint32(m.Type))
		le.PutUint32(b[at+16:], uint32(m.Sem))
		le.PutUint32(b[at+20:], m.Units.Pack())
		le.PutUint32(b[at+24:], m.Indom)
		le.PutUint64(b[at+32:], w.putString(m.Short))
		le.PutUint64(b[at+40:], w.putString(m.Help))
		if m.Indom == 0 {
			le.PutUint64(b[val+16:], uint64(at))
			f.values[valueKey{m.Name, ""}] = val
			val += valueSize
			continue
		}
		for j, inst := range l.indomOf[m.Indom].Instances {
			le.PutUint64(b[val+16:], uint64(at))
			le.PutUint64(b[val+24:], uint64(instAt[m.Indom][j]))
			f.values[valueKey{m.Name, inst.Name}] = val
			val += valueSize
		}
	}
}

// word is the 8-byte word at off in the mapping, for atomic access.
func (f *File) word(off int) *uint64 {
	return (*uint64)(unsafe.Pointer(&f.data[off]))
}

// Value is one value of a file, to update.
type Value struct{ p *uint64 }

// Value finds the value of metric for instance inst ("" for a metric
// without instances); ok is false if there is none.
func (f *File) Value(metric, inst string) (v Value, ok bool) {
	off, ok := f.values[valueKey{metric, inst}]
	if !ok {
		return Value{}, false
	}
	return Value{f.word(off)}, true
}

// SetUint64 sets a U64 value.
func (v Value) SetUint64(x uint64) {
	if v.p != nil {
		atomic.StoreUint64(v.p, x)
	}
}

// SetFloat64 sets a Double value.
func (v Value) SetFloat64(x float64) { v.SetUint64(math.Float64bits(x)) }

// Close unmaps the file and removes it, unless keep (it is being replaced
// by a new file of the same name, which has been renamed over it). Its
// generation numbers are first made to differ, so the PMDA, which may
// still map it, looks again.
func (f *File) Close(keep bool) error {
	if f.data == nil {
		return nil
	}
	atomic.StoreUint64(f.word(16), 0)
	err := syscall.Munmap(f.data)
	f.data = nil
	if !keep {
		if rerr := os.Remove(f.path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) && err == nil {
			err = rerr
		}
	}
	return err
}
