package archive

import (
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"strings"

	"github.com/gopcp/pmie/pmapi"
	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"
)

// compressors lists the file name suffixes of compressed archive files
// that libpcp reads, in the order it tries them.
var compressors = []struct {
	suffix string
	open   func(io.Reader) (io.Reader, error)
}{
	{".xz", func(r io.Reader) (io.Reader, error) { return xz.NewReader(r) }},
	{".lzma", func(r io.Reader) (io.Reader, error) { return lzma.NewReader(r) }},
	{".bz2", func(r io.Reader) (io.Reader, error) { return bzip2.NewReader(r), nil }},
	{".gz", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
}

// file names one file of an archive (a data volume, the metadata or the
// temporal index) and holds its label.
type file struct {
	path  string // as found, including any compression suffix
	vol   int    // volume number, VolMeta or VolIndex
	label Label
	// anyFeatures accepts labels with feature bits this package does not
	// know (libpcp's PM_CTXFLAG_NO_FEATURE_CHECK).
	anyFeatures bool
}

// be is the byte order of every archive file.
var be = binary.BigEndian

// findFile returns the name under which the archive file name exists,
// trying it as given and then with each compression suffix.
func findFile(name string) (string, bool) {
	if st, err := os.Stat(name); err == nil && st.Mode().IsRegular() {
		return name, true
	}
	for _, c := range compressors {
		if st, err := os.Stat(name + c.suffix); err == nil && st.Mode().IsRegular() {
			return name + c.suffix, true
		}
	}
	return "", false
}

// compressor returns the decompressor for path, by its suffix, or nil
// if path is not compressed.
func compressor(path string) (string, func(io.Reader) (io.Reader, error)) {
	for _, c := range compressors {
		if strings.HasSuffix(path, c.suffix) {
			return strings.TrimPrefix(c.suffix, "."), c.open
		}
	}
	return "", nil
}

// readFile reads and decompresses the whole archive file at path, which
// is volume vol (the metadata or the index), and checks its label
// (accepting unknown feature bits if anyFeatures is set).
func readFile(path string, vol int, anyFeatures bool) (*file, []byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	f := &file{path: path, vol: vol, anyFeatures: anyFeatures}
	if name, decomp := compressor(path); decomp != nil {
		if name == "xz" {
			if _, err := xzLength(bytes.NewReader(data), int64(len(data))); err != nil {
				return nil, nil, f.errorf(0, pmapi.ErrLogRec, "not a well-formed xz file: %v", err)
			}
		}
		r, err := decomp(bytes.NewReader(data))
		if err == nil {
			data, err = io.ReadAll(r)
		}
		if err != nil {
			// libpcp decompresses a block at a time, and finds that it
			// cannot when it reads the label
			return nil, nil, f.errorf(0, pmapi.ErrLabel, "cannot decompress (%s): %v", name, err)
		}
	}
	if f.label, err = f.decodeLabel(data); err != nil {
		return nil, nil, err
	}
	return f, data, nil
}

// openSource opens the archive file at path, which is volume vol, for
// reading in parts, and checks its label (accepting unknown feature bits
// if anyFeatures is set).
func openSource(path string, vol int, anyFeatures bool) (*file, source, error) {
	f := &file{path: path, vol: vol, anyFeatures: anyFeatures}
	var src source
	name, decomp := compressor(path)
	if decomp == nil {
		fs, err := openFileSource(path)
		if err != nil {
			return nil, nil, err
		}
		src = fs
	} else {
		known := int64(-1)
		if name == "xz" {
			// As libpcp does, read the xz indexes first: they give the
			// length of the data, and show a truncated file at once.
			n, err := xzFileLength(path)
			if err != nil {
				if notExist(err) {
					return nil, nil, err
				}
				return nil, nil, f.errorf(0, pmapi.ErrLogRec, "not a well-formed xz file: %v", err)
			}
			known = n
		}
		zs, err := openZSource(path, decomp)
		if err != nil {
			if notExist(err) {
				return nil, nil, err
			}
			return nil, nil, f.errorf(0, pmapi.ErrLogRec, "cannot decompress (%s): %v", name, err)
		}
		zs.length = known
		src = zs
	}
	// Enough for the largest label and a byte more, to see whether
	// anything follows it.
	head := make([]byte, labelSizeV3+1)
	n, err := src.readAt(head, 0)
	if err != nil && err != io.EOF {
		src.close()
		if name != "" {
			// libpcp decompresses a block at a time, and finds that it
			// cannot when it reads the label
			return nil, nil, f.errorf(int64(n), pmapi.ErrLabel, "cannot decompress (%s): %v", name, err)
		}
		return nil, nil, err
	}
	if f.label, err = f.decodeLabel(head[:n]); err != nil {
		src.close()
		return nil, nil, err
	}
	return f, src, nil
}

// notExist reports whether err says a file does not exist.
func notExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// Label is an archive label: the header record at the start of every file
// of an archive.
type Label struct {
	Version  int        // log format: 2 or 3
	PID      int32      // process id of the pmlogger that wrote it
	Start    pmapi.Time // when the archive starts
	Volume   int32      // volume number, or VolMeta or VolIndex
	Features uint32     // v3 feature bits
	Host     string     // the host the metrics come from
	TZ       string     // that host's $TZ, e.g. "AEDT-11"
	Zoneinfo string     // v3 only: that host's zoneinfo name, e.g. ":Australia/Melbourne"

	wild bool // Start is beyond what a pmapi.Time holds (see stamp3Fits)
}

// The archive label magic number and its parts.
const (
	logMagic      = 0x50052600
	labelSizeV2   = 132 // record size, framing included
	labelSizeV3   = 808
	featureQA     = 1 << 31 // the one feature bit PCP 6.0.3 accepts
	hostLenV2     = 64
	tzLenV2       = 40
	labelFieldLen = 256
)

// labelSize is the size in bytes of the label record of a log format.
func labelSize(version int) int {
	if version == 3 {
		return labelSizeV3
	}
	return labelSizeV2
}

// cstring returns b up to its first NUL.
func cstring(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// decodeLabel decodes and checks the label record at the start of f,
// given d, the start of the file: all of it, or at least a byte more
// than the longest label.
func (f *file) decodeLabel(d []byte) (Label, error) {
	var l Label
	if len(d) == 0 {
		return l, f.errorf(0, pmapi.ErrNoData, "empty file")
	}
	if len(d) < 8 {
		// libpcp reads the length and magic first, and calls a file too
		// short for them empty
		return l, f.errorf(0, pmapi.ErrNoData, "truncated label: %d bytes", len(d))
	}
	size, magic := int(be.Uint32(d)), be.Uint32(d[4:])
	if magic&0xffffff00 != logMagic {
		return l, f.errorf(4, pmapi.ErrLabel, "not a PCP archive: label magic %#08x", magic)
	}
	l.Version = int(magic & 0xff)
	if l.Version != 2 && l.Version != 3 {
		return l, f.errorf(4, pmapi.ErrLabel, "log format version %d not supported (only 2 and 3)", l.Version)
	}
	if size != labelSize(l.Version) {
		return l, f.errorf(0, pmapi.ErrLabel, "label record length %d, want %d for log format %d", size, labelSize(l.Version), l.Version)
	}
	if len(d) < size {
		return l, f.errorf(int64(len(d)), pmapi.ErrLabel, "truncated label: %d bytes of %d", len(d), size)
	}
	if trail := int(be.Uint32(d[size-4:])); trail != size {
		return l, f.errorf(int64(size-4), pmapi.ErrLabel, "label trailer length %d does not match header %d", trail, size)
	}
	p := d[4 : size-4]
	l.PID = int32(be.Uint32(p[4:]))
	if l.Version == 2 {
		l.Start = stamp2(p[8:])
		l.Volume = int32(be.Uint32(p[16:]))
		l.Host = cstring(p[20 : 20+hostLenV2-1])
		l.TZ = cstring(p[20+hostLenV2 : 20+hostLenV2+tzLenV2-1])
	} else {
		l.Start, l.wild = stamp3(p[8:]), !stamp3Fits(p[8:])
		l.Volume = int32(be.Uint32(p[20:]))
		l.Features = be.Uint32(p[24:])
		l.Host = cstring(p[32 : 32+labelFieldLen-1])
		l.TZ = cstring(p[32+labelFieldLen : 32+2*labelFieldLen-1])
		l.Zoneinfo = cstring(p[32+2*labelFieldLen : 32+3*labelFieldLen-1])
	}
	if int(l.Volume) != f.vol {
		return l, f.errorf(4+16+4*int64(l.Version-2), pmapi.ErrLabel, "label is for %s, not %s", volumeName(int(l.Volume)), volumeName(f.vol))
	}
	if l.Features&^featureQA != 0 && !f.anyFeatures {
		return l, f.errorf(4+24, pmapi.ErrFeature, "unsupported archive feature bits %#x", l.Features&^featureQA)
	}
	if len(d) == size {
		return l, f.errorf(int64(size), pmapi.ErrNoData, "no records after the label")
	}
	return l, nil
}

// sameArchive checks that the label of f agrees with the label of the
// archive's first file, as libpcp requires of the metadata and index.
func (f *file) sameArchive(l Label) error {
	if f.label.Version != l.Version {
		return f.errorf(4, pmapi.ErrLabel, "log format %d, but the archive's other files are format %d", f.label.Version, l.Version)
	}
	if f.label.PID != l.PID || f.label.Host != l.Host {
		return f.errorf(8, pmapi.ErrLabel, "label (pid %d, host %q) does not match the archive's (pid %d, host %q)", f.label.PID, f.label.Host, l.PID, l.Host)
	}
	return nil
}

// stamp3 decodes a log format 3 timestamp: 64-bit seconds, written as
// two big-endian 32-bit words, the low word first, then 32-bit
// nanoseconds.
func stamp3(b []byte) pmapi.Time {
	sec := int64(be.Uint32(b[4:]))<<32 | int64(be.Uint32(b))
	return pmapi.TimeOf(sec, int64(be.Uint32(b[8:])))
}

// stamp3Fits reports whether the log format 3 timestamp in b is one a
// pmapi.Time can hold (between the years 1678 and 2262); one beyond is
// damage, as PCP's tools write no such times.
func stamp3Fits(b []byte) bool {
	sec := int64(be.Uint32(b[4:]))<<32 | int64(be.Uint32(b))
	const limit = math.MaxInt64/int64(1e9) - 1
	return sec > -limit && sec < limit
}

// stamp2 decodes a log format 2 timestamp: 32-bit seconds and
// microseconds.
func stamp2(b []byte) pmapi.Time {
	return pmapi.TimeOf(int64(int32(be.Uint32(b))), int64(int32(be.Uint32(b[4:])*1000)))
}
