package pmapi

// Units is the dimension and scale of a metric's values (pmUnits).
//
// Dimensions are small signed powers of Space, Time and Count. ScaleSpace is
// one of the Space* constants, ScaleTime one of the Time* constants, and
// ScaleCount a power of ten.
type Units struct {
	DimSpace, DimTime, DimCount       int8
	ScaleSpace, ScaleTime, ScaleCount int8
}

// Space scales (PM_SPACE_*).
const (
	SpaceByte  = 0
	SpaceKByte = 1
	SpaceMByte = 2
	SpaceGByte = 3
	SpaceTByte = 4
	SpacePByte = 5
	SpaceEByte = 6
	SpaceZByte = 7
	SpaceYByte = 8
)

// Time scales (PM_TIME_*).
const (
	TimeNSec = 0
	TimeUSec = 1
	TimeMSec = 2
	TimeSec  = 3
	TimeMin  = 4
	TimeHour = 5
)

// Dimensionless reports whether u has no dimension in any axis.
func (u Units) Dimensionless() bool {
	return u.DimSpace == 0 && u.DimTime == 0 && u.DimCount == 0
}

// SameDimension reports whether u and v have equal powers on every axis,
// whatever their scales.
func (u Units) SameDimension(v Units) bool {
	return u.DimSpace == v.DimSpace && u.DimTime == v.DimTime && u.DimCount == v.DimCount
}

// sext4 sign-extends the low 4 bits of x.
func sext4(x uint32) int8 { return int8(x<<4) >> 4 }

// UnpackUnits decodes the 32-bit word in which PCP's wire and archive
// formats carry a pmUnits (after conversion to host byte order): from the
// most significant nibble down, dimSpace, dimTime, dimCount, scaleSpace,
// scaleTime, scaleCount, then 8 bits that PCP 6.0.3 ignores.
func UnpackUnits(w uint32) Units {
	return Units{
		DimSpace:   sext4(w >> 28),
		DimTime:    sext4(w >> 24),
		DimCount:   sext4(w >> 20),
		ScaleSpace: int8(w >> 16 & 0xf),
		ScaleTime:  int8(w >> 12 & 0xf),
		ScaleCount: sext4(w >> 8),
	}
}

// Pack encodes u as UnpackUnits decodes it, with the low 8 bits zero.
func (u Units) Pack() uint32 {
	n := func(v int8) uint32 { return uint32(v) & 0xf }
	return n(u.DimSpace)<<28 | n(u.DimTime)<<24 | n(u.DimCount)<<20 |
		n(u.ScaleSpace)<<16 | n(u.ScaleTime)<<12 | n(u.ScaleCount)<<8
}
