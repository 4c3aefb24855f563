package pmapi

// How values travel (insitu in a pmValue, or in a value block) against
// the type a client takes them as, as libpcp's pmExtractValue allows: a
// value stored otherwise than its type needs cannot be converted, and is
// a Mismatch. Archives and pmcd's results are read by these rules alike.

// InsituFits reports whether an insitu value can be one of type t: only
// 32-bit values (a float being the old insitu encoding); TypeUnknown and
// TypeNoSupport are a metric whose type is not known.
func InsituFits(t Type) bool {
	switch t {
	case Type32, TypeU32, TypeFloat, TypeUnknown, TypeNoSupport:
		return true
	}
	return false
}

// VTypeFits reports whether a value block's own type vt suits type t:
// the same, or 0 (unset) as old archives have.
func VTypeFits(t, vt Type) bool { return vt == t || vt == 0 }

// BlockFits reports whether a value block of type vt with n bytes after
// its header can be a value of type t: numbers of exactly their size,
// strings and aggregates of any, 32-bit integers never (they are insitu).
// Event records are decoded as they are.
func BlockFits(t, vt Type, n int) bool {
	switch t {
	case Type64, TypeU64, TypeDouble:
		return n == 8 && VTypeFits(t, vt)
	case TypeFloat:
		return n == 4 && VTypeFits(t, vt)
	case TypeString, TypeAggregate:
		return VTypeFits(t, vt)
	case Type32, TypeU32:
		return false
	}
	return true
}

// HostOrder is the bytes b (big-endian, as they travel) of a value block
// of type vt in the order libpcp holds them after reading it: a 64-bit or
// float value in the (little-endian) host's order, anything else as it
// is.
func HostOrder(vt Type, b []byte) []byte {
	n := 0
	switch vt {
	case Type64, TypeU64, TypeDouble:
		n = 8
	case TypeFloat:
		n = 4
	}
	if n == 0 {
		return b
	}
	return Swapped(b, n)
}

// Swapped is b with its first n bytes in reverse order (b itself if it
// is shorter).
func Swapped(b []byte, n int) []byte {
	if len(b) < n {
		return b
	}
	out := append([]byte(nil), b...)
	for i := 0; i < n; i++ {
		out[i] = b[n-1-i]
	}
	return out
}
