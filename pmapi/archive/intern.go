package archive

// interner makes strings of value blocks (strings, aggregates, events)
// read from records, which live in reused buffers. Archives repeat the
// same strings record after record (host names, versions, device
// names), so short ones are shared: a value seen recently costs no
// allocation. The table is bounded; when full it starts afresh.
type interner struct {
	m map[string]string
}

// Bounds of an interner's table.
const (
	internLen   = 256  // longer values are copied, not shared
	internCount = 1024 // values kept before the table starts afresh
)

// str returns the bytes of b as a string that stays valid.
func (in *interner) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > internLen {
		return string(b)
	}
	if s, ok := in.m[string(b)]; ok {
		return s
	}
	if in.m == nil || len(in.m) >= internCount {
		in.m = make(map[string]string)
	}
	s := string(b)
	in.m[s] = s
	return s
}
