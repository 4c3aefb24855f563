package pmapi

import "time"

// gdDate is what the items of a getdate text set: the fields of an
// absolute date and time (defaulting to the reference day at midnight),
// relative amounts, and how many of each kind of item were given.
type gdDate struct {
	toks []gdToken
	pos  int
	loc  *time.Location

	year, month, day      int64
	hour, minutes, secs   int64
	meridian              int
	zone                  int64 // minutes west of UTC
	dst                   int
	dayOrdinal, dayNumber int64
	relMonths, relSecs    int64

	haveTime, haveZone, haveDate, haveDay, haveRel, haveAlign int
}

func (d *gdDate) peek() gdKind { return d.toks[d.pos].kind }

func (d *gdDate) next() gdToken {
	t := d.toks[d.pos]
	if t.kind != gdEnd {
		d.pos++
	}
	return t
}

// accept takes the next token if it is of kind k.
func (d *gdDate) accept(k gdKind) (int64, bool) {
	if d.peek() != k {
		return 0, false
	}
	return d.next().val, true
}

// parse reads every item, reporting false at a syntax error.
func (d *gdDate) parse() bool {
	for d.peek() != gdEnd {
		if !d.item() {
			return false
		}
	}
	return true
}

func (d *gdDate) item() bool {
	t := d.next()
	switch t.kind {
	case gdUnsigned:
		return d.afterNumber(t.val)
	case gdSigned:
		u := d.next()
		if !isRelUnit(u.kind) {
			return false
		}
		d.relUnit(t.val, u)
	case gdMinuteUnit, gdSecUnit, gdMonthUnit, gdDayUnit:
		d.bareUnit(t)
	case gdZone:
		d.zone, d.dst = t.val, dstOff
		if _, ok := d.accept(gdDST); ok {
			d.dst = dstOn
		}
		d.haveZone++
	case gdDayZone:
		d.zone, d.dst = t.val, dstOn
		d.haveZone++
	case gdDay:
		d.accept(gdComma)
		d.dayOrdinal, d.dayNumber = 0, t.val
		d.haveDay++
	case gdMonth:
		day, ok := d.accept(gdUnsigned)
		if !ok {
			return false
		}
		d.month, d.day = t.val, day
		if _, ok := d.accept(gdComma); ok {
			if d.year, ok = d.accept(gdUnsigned); !ok {
				return false
			}
		}
		d.haveDate++
	default:
		return false
	}
	return true
}

func isRelUnit(k gdKind) bool {
	return k == gdMinuteUnit || k == gdSecUnit || k == gdMonthUnit || k == gdDayUnit
}

// afterNumber reads the item that begins with the unsigned number n.
func (d *gdDate) afterNumber(n int64) bool {
	switch d.peek() {
	case gdMeridian:
		d.hour, d.minutes, d.secs, d.meridian = n, 0, 0, int(d.next().val)
		d.haveTime++
	case gdColon:
		d.next()
		return d.clock(n)
	case gdSlash:
		d.next()
		m, ok := d.accept(gdUnsigned)
		if !ok {
			return false
		}
		d.month, d.day = n, m
		if _, ok := d.accept(gdSlash); ok {
			y, ok := d.accept(gdUnsigned)
			if !ok {
				return false
			}
			if n >= 100 {
				d.year, d.month, d.day = n, m, y
			} else {
				d.year = y
			}
		}
		d.haveDate++
	case gdSigned:
		m := d.next().val
		day, ok := d.accept(gdSigned)
		if !ok {
			return false
		}
		d.year, d.month, d.day = n, -m, -day
		d.haveDate++
	case gdMonth:
		d.month, d.day = d.next().val, n
		if y, ok := d.accept(gdSigned); ok {
			d.year = -y
		} else if y, ok := d.accept(gdUnsigned); ok {
			d.year = y
		}
		d.haveDate++
	case gdDay:
		d.dayOrdinal, d.dayNumber = n, d.next().val
		d.haveDay++
	case gdMinuteUnit, gdSecUnit, gdMonthUnit, gdDayUnit:
		d.relUnit(n, d.next())
	default:
		d.number(n)
	}
	return true
}

// clock reads a time after its hour and ':'. A numeric zone after hours
// and minutes leaves the seconds as they were.
func (d *gdDate) clock(hour int64) bool {
	minutes, ok := d.accept(gdUnsigned)
	if !ok {
		return false
	}
	d.hour, d.minutes, d.meridian = hour, minutes, mer24
	if _, ok := d.accept(gdColon); ok {
		if d.secs, ok = d.accept(gdUnsigned); !ok {
			return false
		}
	} else if d.peek() != gdSigned {
		d.secs = 0
	}
	switch d.peek() {
	case gdMeridian:
		d.meridian = int(d.next().val)
	case gdSigned:
		off := d.next().val // -hhmm
		d.zone, d.dst = -(off%100 + off/100*60), dstOff
	}
	d.haveTime++
	return true
}

// relUnit adds n of the unit u; bareUnit adds one (libpcp's "second"
// alone is one second whatever its value).
func (d *gdDate) relUnit(n int64, u gdToken) {
	switch u.kind {
	case gdMinuteUnit:
		d.relSecs += n * u.val * 60
	case gdSecUnit:
		d.relSecs += n
	case gdMonthUnit:
		d.relMonths += n * u.val
	case gdDayUnit:
		d.relSecs += n * u.val * 60
		d.haveAlign++
	}
	d.rel()
}

func (d *gdDate) bareUnit(u gdToken) {
	switch u.kind {
	case gdMinuteUnit:
		d.relSecs += u.val * 60
	case gdSecUnit:
		d.relSecs++
	case gdMonthUnit:
		d.relMonths += u.val
	case gdDayUnit:
		d.relSecs += u.val * 60
		d.haveAlign++
	}
	d.rel()
}

// rel ends a relative item: "ago" negates everything relative so far.
func (d *gdDate) rel() {
	if _, ok := d.accept(gdAgo); ok {
		d.relSecs, d.relMonths = -d.relSecs, -d.relMonths
	}
	d.haveRel++
}

// number is a bare unsigned number: the year after a date and a time,
// else a date as yyyymmdd when above 10000, else a time as hh or hhmm.
func (d *gdDate) number(n int64) {
	switch {
	case d.haveTime > 0 && d.haveDate > 0 && d.haveRel == 0:
		d.year = n
	case n > 10000:
		d.haveDate++
		d.day, d.month, d.year = n%100, n/100%100, n/10000
	default:
		d.haveTime++
		if n < 100 {
			d.hour, d.minutes = n, 0
		} else {
			d.hour, d.minutes = n/100, n%100
		}
		d.secs, d.meridian = 0, mer24
	}
}
