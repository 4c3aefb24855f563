package archive

import (
	"github.com/gopcp/pmie/pmapi"
)

// IndexEntry is one entry of the temporal index: at Time, the data
// volume Volume had reached byte offset DataOffset and the metadata
// MetaOffset.
type IndexEntry struct {
	Time       pmapi.Time
	Volume     int
	MetaOffset int64
	DataOffset int64
}

// decodeIndex decodes the temporal index file f, whose contents are
// data. A partial entry at the end is ignored, as libpcp does.
func decodeIndex(f *file, data []byte) []IndexEntry {
	d := data[labelSize(f.label.Version):]
	size := 20
	if f.label.Version == 3 {
		size = 32
	}
	out := make([]IndexEntry, 0, len(d)/size)
	for ; len(d) >= size; d = d[size:] {
		var e IndexEntry
		if f.label.Version == 3 {
			e.Time = stamp3(d)
			e.Volume = int(int32(be.Uint32(d[12:])))
			e.MetaOffset = int64(be.Uint64(d[16:]))
			e.DataOffset = int64(be.Uint64(d[24:]))
		} else {
			e.Time = stamp2(d)
			e.Volume = int(int32(be.Uint32(d[8:])))
			e.MetaOffset = int64(be.Uint32(d[12:]))
			e.DataOffset = int64(be.Uint32(d[16:]))
		}
		out = append(out, e)
	}
	return out
}
