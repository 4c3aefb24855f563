package pmapi

import "math"

// spaceFactor gives, for a Space* scale, the multiplier and divisor that
// take a value to Mbytes, the unit pmConvScale works through.
func spaceFactor(scale int8) (m, d int64, ok bool) {
	switch scale {
	case SpaceByte:
		return 1, 1 << 20, true
	case SpaceKByte:
		return 1, 1 << 10, true
	case SpaceMByte:
		return 1, 1, true
	case SpaceGByte, SpaceTByte, SpacePByte, SpaceEByte:
		return 1 << (10 * (int64(scale) - SpaceMByte)), 1, true
	}
	return 0, 0, false // Zbyte and Ybyte do not fit in 64 bits
}

// timeFactor gives, for a Time* scale, the multiplier and divisor that take
// a value to seconds.
func timeFactor(scale int8) (m, d int64, ok bool) {
	switch scale {
	case TimeNSec:
		return 1, 1e9, true
	case TimeUSec:
		return 1, 1e6, true
	case TimeMSec:
		return 1, 1e3, true
	case TimeSec:
		return 1, 1, true
	case TimeMin:
		return 60, 1, true
	case TimeHour:
		return 3600, 1, true
	}
	return 0, 0, false
}

// countFactor gives, for a count scale (a power of ten), the multiplier
// and divisor that take a value to plain counts.
func countFactor(scale int8) (m, d int64) {
	m, d = 1, 1
	for k := scale; k < 0; k++ {
		d *= 10
	}
	for k := int8(0); k < scale; k++ {
		m *= 10
	}
	return m, d
}

// raise applies one axis of a conversion to the running mult/div: the
// input scale's factors (im/id) and the output scale's (om/od), dim times,
// inverted for a negative dim. Products wrap as libpcp's 64-bit ones do.
func raise(mult, div *int64, dim int8, im, id, om, od int64) {
	m, d := im*od, id*om
	for k := int8(0); k < dim; k++ {
		*div *= d
		*mult *= m
	}
	for k := dim; k < 0; k++ {
		*mult *= d
		*div *= m
	}
}

// scaleRatio works out pmConvScale's integer mult/div for from -> to.
func scaleRatio(from, to Units) (mult, div int64, err error) {
	// dimensionless units count as "count"
	if from.Dimensionless() {
		from.DimCount = 1
	}
	if to.Dimensionless() {
		to.DimCount = 1
	}
	if !from.SameDimension(to) {
		return 0, 0, ErrConv
	}
	mult, div = 1, 1
	if from.DimSpace != 0 {
		im, id, ok1 := spaceFactor(from.ScaleSpace)
		om, od, ok2 := spaceFactor(to.ScaleSpace)
		if !ok1 || !ok2 {
			return 0, 0, ErrUnit
		}
		raise(&mult, &div, from.DimSpace, im, id, om, od)
	}
	if from.DimTime != 0 {
		im, id, ok1 := timeFactor(from.ScaleTime)
		om, od, ok2 := timeFactor(to.ScaleTime)
		if !ok1 || !ok2 {
			return 0, 0, ErrUnit
		}
		raise(&mult, &div, from.DimTime, im, id, om, od)
	}
	if from.DimCount != 0 || (from.DimSpace == 0 && from.DimTime == 0) {
		im, id := countFactor(from.ScaleCount)
		om, od := countFactor(to.ScaleCount)
		if from.DimCount == 0 {
			mult, div = im*od, id*om
		} else {
			raise(&mult, &div, from.DimCount, im, id, om, od)
		}
	}
	if div == 0 {
		// the factors overflowed 64 bits to zero: libpcp dies of SIGFPE
		return 0, 0, ErrConv
	}
	if mult%div == 0 {
		mult /= div
		div = 1
	}
	return mult, div, nil
}

// ConvScale is pmConvScale(3): it rescales a, a value in units from, to
// units to, which must have the same dimension (dimensionless counts as
// count). Integers are scaled in 64-bit arithmetic with rounding as libpcp
// does it, floats by the ratio of the scales. It fails with ErrConv for
// different dimensions or a non-numeric atom and ErrUnit for a scale
// libpcp cannot convert (Zbyte, Ybyte, time scales past hour).
//
// Where libpcp divides by zero (scale factors that overflow 64 bits, such
// as byte^3 to Ebyte^3) ConvScale returns ErrConv.
func ConvScale(a Atom, from, to Units) (Atom, error) {
	if !a.Type.Numeric() {
		return Atom{}, ErrConv
	}
	mult, div, err := scaleRatio(from, to)
	if err != nil {
		return Atom{}, err
	}
	half := div / 2
	switch a.Type {
	case Type32:
		return I32(int32((a.Int64()*mult + half) / div)), nil
	case TypeU32:
		return U32(uint32((int64(a.Uint64())*mult + half) / div)), nil
	case Type64:
		return I64((a.Int64()*mult + half) / div), nil
	case TypeU64:
		return U64((a.Uint64()*uint64(mult) + uint64(half)) / uint64(div)), nil
	case TypeFloat:
		return F32(a.Float32() * (float32(mult) / float32(div))), nil
	default: // TypeDouble
		return F64(a.Float64() * (float64(mult) / float64(div))), nil
	}
}

// Convert is pmExtractValue(3) between types: it gives a's value as type
// to, or ErrTrunc when it does not fit, ErrSign for a negative value to an
// unsigned type, or ErrConv between numbers and strings or other types.
// Like libpcp it checks only some bounds: a large negative 64-bit value
// converted to 32 bits keeps its low 32 bits, and float to integer
// conversions truncate toward zero.
func (a Atom) Convert(to Type) (Atom, error) {
	switch a.Type {
	case Type32:
		v := a.Int64()
		if v < 0 && (to == TypeU32 || to == TypeU64) {
			return Atom{}, ErrSign
		}
		return intTo(v, to)
	case TypeU32:
		v := a.Uint64()
		if to == Type32 && v > math.MaxInt32 {
			return Atom{}, ErrTrunc
		}
		return intTo(int64(v), to)
	case Type64:
		return int64To(a.Int64(), to)
	case TypeU64:
		return uint64To(a.Uint64(), to)
	case TypeFloat:
		return floatTo(a.Float32(), to)
	case TypeDouble:
		return doubleTo(a.Float64(), to)
	case TypeString, TypeAggregate:
		if to == a.Type {
			return a, nil
		}
	}
	return Atom{}, ErrConv
}

// intTo converts a value already checked to fit to.
func intTo(v int64, to Type) (Atom, error) {
	switch to {
	case Type32:
		return I32(int32(v)), nil
	case TypeU32:
		return U32(uint32(v)), nil
	case Type64:
		return I64(v), nil
	case TypeU64:
		return U64(uint64(v)), nil
	case TypeFloat:
		return F32(float32(v)), nil
	case TypeDouble:
		return F64(float64(v)), nil
	}
	return Atom{}, ErrConv
}

func int64To(v int64, to Type) (Atom, error) {
	switch {
	case to == Type32 && v > math.MaxInt32,
		to == TypeU32 && v > math.MaxUint32:
		return Atom{}, ErrTrunc
	case v < 0 && (to == TypeU32 || to == TypeU64):
		return Atom{}, ErrSign
	}
	return intTo(v, to)
}

func uint64To(v uint64, to Type) (Atom, error) {
	switch to {
	case Type32, TypeU32, Type64:
		limit := map[Type]uint64{Type32: math.MaxInt32, TypeU32: math.MaxUint32, Type64: math.MaxInt64}[to]
		if v > limit {
			return Atom{}, ErrTrunc
		}
		return intTo(int64(v), to)
	case TypeU64:
		return U64(v), nil
	case TypeFloat:
		return F32(float32(v)), nil
	case TypeDouble:
		return F64(float64(v)), nil
	}
	return Atom{}, ErrConv
}

// CInt64 is what x86-64 gives for a C cast of f to a 64-bit integer, as
// libpcp's conversions make it: truncation toward zero, and the "integer
// indefinite" value MinInt64 for NaN and values out of range.
func CInt64(f float64) int64 {
	if math.IsNaN(f) || f >= 0x1p63 || f < -0x1p63 {
		return math.MinInt64
	}
	return int64(f)
}

// CUint64 is a C cast of f to uint64 on x86-64 (as gcc compiles it: values
// from 2^63 up are converted less 2^63 and the top bit set back).
func CUint64(f float64) uint64 {
	if f >= 0x1p63 {
		return uint64(CInt64(f-0x1p63)) ^ 1<<63
	}
	return uint64(CInt64(f))
}

// CUint32 is a C cast of f to uint32 on x86-64 (as gcc compiles it:
// through a 64-bit integer).
func CUint32(f float64) uint32 { return uint32(CInt64(f)) }

// CInt32 is a C cast of f to int32 on x86-64.
func CInt32(f float64) int32 {
	if math.IsNaN(f) || f >= 0x1p31 || f < -0x1p31 {
		return math.MinInt32
	}
	return int32(f)
}

// realTo converts a float or double v to an integer type. max32 and
// maxU32 are the bounds libpcp checks, which differ between float (2^31,
// 2^32) and double (2^31-1, 2^32-1); the 64-bit bounds round to 2^63 and
// 2^64 in both.
func realTo(v float64, to Type, max32, maxU32 float64) (Atom, error) {
	switch to {
	case Type32:
		if math.Abs(v) >= max32 {
			return Atom{}, ErrTrunc
		}
		return I32(CInt32(v)), nil
	case Type64:
		if v >= 0x1p63 {
			return Atom{}, ErrTrunc
		}
		return I64(CInt64(v)), nil
	}
	// TypeU32, TypeU64
	if (to == TypeU32 && v >= maxU32) || v >= 0x1p64 {
		return Atom{}, ErrTrunc
	}
	if v < 0 {
		return Atom{}, ErrSign
	}
	if to == TypeU32 {
		return U32(uint32(CInt64(v))), nil
	}
	return U64(CUint64(v)), nil
}

func floatTo(f float32, to Type) (Atom, error) {
	switch to {
	case TypeFloat:
		return F32(f), nil
	case TypeDouble:
		return F64(float64(f)), nil
	case Type32, TypeU32, Type64, TypeU64:
		return realTo(float64(f), to, 0x1p31, 0x1p32)
	}
	return Atom{}, ErrConv
}

func doubleTo(d float64, to Type) (Atom, error) {
	switch to {
	case TypeFloat:
		return F32(float32(d)), nil
	case TypeDouble:
		return F64(d), nil
	case Type32, TypeU32, Type64, TypeU64:
		return realTo(d, to, math.MaxInt32, math.MaxUint32)
	}
	return Atom{}, ErrConv
}
