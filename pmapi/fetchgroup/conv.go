package fetchgroup

import (
	"github.com/gopcp/pmie/pmapi"
)

// conversion is how an item's values are rescaled and turned into rates.
type conversion struct {
	rate bool // divide the change since the previous fetch by the time between
	unit bool // rescale from the metric's units to out, then multiply by mult
	out  pmapi.Units
	mult float64
}

// convertible reports whether fetchgroups take values of type t, in and
// out: numbers and strings.
func convertible(t pmapi.Type) bool {
	return t.Numeric() || t == pmapi.TypeString
}

// perSecond adjusts mult, for the time scale of a rate's "per", to take
// a value per second to a value per that unit, dividing or multiplying
// as libpcp does so the result is the same double.
func perSecond(mult float64, scale int8) (float64, bool) {
	switch scale {
	case pmapi.TimeNSec:
		return mult / 1e9, true
	case pmapi.TimeUSec:
		return mult / 1e6, true
	case pmapi.TimeMSec:
		return mult / 1e3, true
	case pmapi.TimeSec:
		return mult, true
	case pmapi.TimeMin:
		return mult * 60, true
	case pmapi.TimeHour:
		return mult * 3600, true
	}
	return 0, false
}

// prepare works out the conversion of scale for a metric described by
// desc, to values of type out. scale is "" (rates for counters, else
// nothing), "rate", "instant", or units as ParseUnits reads them, of the
// metric's dimension (rescaled) or of one less time dimension (a
// rescaled rate).
func prepare(desc pmapi.Desc, scale string, out pmapi.Type) (conversion, error) {
	var c conversion
	if !convertible(desc.Type) || !convertible(out) {
		return c, pmapi.ErrType
	}
	switch scale {
	case "":
		c.rate = desc.Sem == pmapi.SemCounter
		return c, nil
	case "rate":
		c.rate = true
		return c, nil
	case "instant":
		return c, nil
	}
	u, mult, err := pmapi.ParseUnits(scale)
	if err != nil {
		return c, pmapi.Code(err)
	}
	c.out, c.mult, c.unit = u, mult, true
	in := desc.Units
	switch {
	case in.SameDimension(u):
		return c, nil
	case in.DimSpace == u.DimSpace && in.DimCount == u.DimCount && in.DimTime == u.DimTime+1:
		var ok bool
		if c.mult, ok = perSecond(c.mult, u.ScaleTime); !ok {
			return c, pmapi.ErrConv
		}
		c.out.DimTime++
		c.rate = true
		return c, nil
	}
	return c, pmapi.ErrConv
}
