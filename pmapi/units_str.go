package pmapi

import (
	"strconv"
	"strings"
)

// spaceNames are the pmUnitsStr words for the Space* scales.
var spaceNames = [...]string{"byte", "Kbyte", "Mbyte", "Gbyte", "Tbyte", "Pbyte", "Ebyte", "Zbyte", "Ybyte"}

// timeNames are the pmUnitsStr words for the Time* scales.
var timeNames = [...]string{"nanosec", "microsec", "millisec", "sec", "min", "hour"}

func (u Units) spaceWord() string {
	if s := int(u.ScaleSpace); s >= 0 && s < len(spaceNames) {
		return spaceNames[s]
	}
	return "space-" + strconv.Itoa(int(u.ScaleSpace))
}

func (u Units) timeWord() string {
	if s := int(u.ScaleTime); s >= 0 && s < len(timeNames) {
		return timeNames[s]
	}
	return "time-" + strconv.Itoa(int(u.ScaleTime))
}

func (u Units) countWord() string {
	switch u.ScaleCount {
	case 0:
		return "count"
	case 1:
		return "count x 10"
	}
	return "count x 10^" + strconv.Itoa(int(u.ScaleCount))
}

// String formats u exactly as pmUnitsStr(3) does: the axes with positive
// powers, then "/" and those with negative powers, each as a scale word
// with "^N" when the power is not 1, for example "Kbyte / sec" or
// "count x 10^3 / microsec". Dimensionless units give "" unless they carry
// a count scale ("x 10^6"). pminfo prints "none" for "".
func (u Units) String() string {
	var b strings.Builder
	axes := [3]struct {
		dim  int8
		word func() string
	}{{u.DimSpace, u.spaceWord}, {u.DimTime, u.timeWord}, {u.DimCount, u.countWord}}
	term := func(word string, power int) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(word)
		if power != 1 {
			b.WriteByte('^')
			b.WriteString(strconv.Itoa(power))
		}
	}
	for _, a := range axes {
		if a.dim > 0 {
			term(a.word(), int(a.dim))
		}
	}
	if u.DimSpace < 0 || u.DimTime < 0 || u.DimCount < 0 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte('/')
		for _, a := range axes {
			if a.dim < 0 {
				term(a.word(), -int(a.dim))
			}
		}
	}
	if b.Len() == 0 {
		switch u.ScaleCount {
		case 0:
		case 1:
			return "x 10"
		default:
			return "x 10^" + strconv.Itoa(int(u.ScaleCount))
		}
	}
	return b.String()
}
