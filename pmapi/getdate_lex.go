package pmapi

import "strings"

// The words and tokens of getdate texts (see getdate.go).

// gdKind is the kind of a getdate token.
type gdKind int

const (
	gdEnd        gdKind = iota
	gdOther             // a character or word with no place in the grammar
	gdUnsigned          // 17, or an ordinal word ("third", "last", "next")
	gdSigned            // -5, +0200
	gdMeridian          // am, pm
	gdMonth             // january, jan, sept
	gdDay               // thursday, thu, thurs
	gdZone              // est, utc, z
	gdDayZone           // edt, bst
	gdDST               // dst
	gdMinuteUnit        // hour, week, now, this (value in minutes)
	gdSecUnit           // second, sec
	gdMonthUnit         // month, year (value in months)
	gdDayUnit           // today, tomorrow, yesterday (minutes, day-aligned)
	gdAgo               // ago
	gdColon
	gdSlash
	gdComma
)

// The meridians of a time; the value of a gdMeridian token.
const (
	mer24 = iota
	merAM
	merPM
)

// The daylight-saving mode of a date: given by a zone, or found from the
// date itself.
const (
	dstMaybe = iota
	dstOn
	dstOff
)

type gdToken struct {
	kind gdKind
	val  int64
}

type gdWord struct {
	name string
	kind gdKind
	val  int64
}

// gdMonthDays are the month and day names. Three letters (or three and a
// '.') name the first of them that begins so.
var gdMonthDays = []gdWord{
	{"january", gdMonth, 1}, {"february", gdMonth, 2}, {"march", gdMonth, 3},
	{"april", gdMonth, 4}, {"may", gdMonth, 5}, {"june", gdMonth, 6},
	{"july", gdMonth, 7}, {"august", gdMonth, 8}, {"september", gdMonth, 9},
	{"sept", gdMonth, 9}, {"october", gdMonth, 10}, {"november", gdMonth, 11},
	{"december", gdMonth, 12},
	{"sunday", gdDay, 0}, {"monday", gdDay, 1}, {"tuesday", gdDay, 2},
	{"tues", gdDay, 2}, {"wednesday", gdDay, 3}, {"wednes", gdDay, 3},
	{"thursday", gdDay, 4}, {"thur", gdDay, 4}, {"thurs", gdDay, 4},
	{"friday", gdDay, 5}, {"saturday", gdDay, 6},
}

// gdUnits are the units of relative times; a plural 's' is allowed.
var gdUnits = []gdWord{
	{"year", gdMonthUnit, 12}, {"month", gdMonthUnit, 1},
	{"fortnight", gdMinuteUnit, 14 * 24 * 60}, {"week", gdMinuteUnit, 7 * 24 * 60},
	{"day", gdMinuteUnit, 24 * 60}, {"hour", gdMinuteUnit, 60},
	{"minute", gdMinuteUnit, 1}, {"min", gdMinuteUnit, 1},
	{"second", gdSecUnit, 1}, {"sec", gdSecUnit, 1},
}

// gdOthers are the remaining words. "second" is a unit, not an ordinal.
var gdOthers = []gdWord{
	{"tomorrow", gdDayUnit, 24 * 60}, {"yesterday", gdDayUnit, -24 * 60},
	{"today", gdDayUnit, 0}, {"now", gdMinuteUnit, 0},
	{"last", gdUnsigned, -1}, {"this", gdMinuteUnit, 0}, {"next", gdUnsigned, 2},
	{"first", gdUnsigned, 1}, {"third", gdUnsigned, 3}, {"fourth", gdUnsigned, 4},
	{"fifth", gdUnsigned, 5}, {"sixth", gdUnsigned, 6}, {"seventh", gdUnsigned, 7},
	{"eighth", gdUnsigned, 8}, {"ninth", gdUnsigned, 9}, {"tenth", gdUnsigned, 10},
	{"eleventh", gdUnsigned, 11}, {"twelfth", gdUnsigned, 12},
	{"ago", gdAgo, 1},
}

// gdZones are the zone names, with their offsets in minutes west of UTC
// (of standard time, for the daylight ones).
var gdZones = []gdWord{
	{"gmt", gdZone, 0}, {"ut", gdZone, 0}, {"utc", gdZone, 0}, {"wet", gdZone, 0},
	{"bst", gdDayZone, 0}, {"wat", gdZone, 60}, {"at", gdZone, 120},
	{"ast", gdZone, 240}, {"adt", gdDayZone, 240},
	{"est", gdZone, 300}, {"edt", gdDayZone, 300},
	{"cst", gdZone, 360}, {"cdt", gdDayZone, 360},
	{"mst", gdZone, 420}, {"mdt", gdDayZone, 420},
	{"pst", gdZone, 480}, {"pdt", gdDayZone, 480},
	{"yst", gdZone, 540}, {"ydt", gdDayZone, 540},
	{"hst", gdZone, 600}, {"hdt", gdDayZone, 600},
	{"cat", gdZone, 600}, {"ahst", gdZone, 600}, {"nt", gdZone, 660},
	{"idlw", gdZone, 720},
	{"cet", gdZone, -60}, {"met", gdZone, -60}, {"mewt", gdZone, -60},
	{"mest", gdDayZone, -60}, {"swt", gdZone, -60}, {"sst", gdDayZone, -60},
	{"fwt", gdZone, -60}, {"fst", gdDayZone, -60},
	{"eet", gdZone, -120}, {"bt", gdZone, -180},
	{"zp4", gdZone, -240}, {"zp5", gdZone, -300}, {"zp6", gdZone, -360},
	{"wast", gdZone, -420}, {"wadt", gdDayZone, -420},
	{"cct", gdZone, -480}, {"jst", gdZone, -540},
	{"east", gdZone, -600}, {"eadt", gdDayZone, -600}, {"gst", gdZone, -600},
	{"nzt", gdZone, -720}, {"nzst", gdZone, -720}, {"nzdt", gdDayZone, -720},
	{"idle", gdZone, -720},
}

// militaryZone is the offset, in hours west of UTC, of the one-letter
// zones "a" to "z" ("j" is not one).
func militaryZone(c byte) (int64, bool) {
	switch {
	case c >= 'a' && c <= 'i':
		return int64(c-'a') + 1, true
	case c >= 'k' && c <= 'm':
		return int64(c-'k') + 10, true
	case c >= 'n' && c <= 'y':
		return -(int64(c-'n') + 1), true
	case c == 'z':
		return 0, true
	}
	return 0, false
}

func findWord(table []gdWord, w string) (gdToken, bool) {
	for _, e := range table {
		if e.name == w {
			return gdToken{e.kind, e.val}, true
		}
	}
	return gdToken{}, false
}

// gdWordMax is how much of a word is looked up: the rest is dropped.
const gdWordMax = 19

// lookupWord classifies a word (letters and periods, starting with a
// letter), trying the tables in libpcp's order.
func lookupWord(w string) gdToken {
	w = asciiLower(w)
	switch w {
	case "am", "a.m.":
		return gdToken{gdMeridian, merAM}
	case "pm", "p.m.":
		return gdToken{gdMeridian, merPM}
	}
	// three letters, or three and a period (which is then dropped), are
	// an abbreviation of a month or day: no whole name is tried
	abbrev := len(w) == 3
	if len(w) == 4 && w[3] == '.' {
		abbrev, w = true, w[:3]
	}
	for _, e := range gdMonthDays {
		if (abbrev && strings.HasPrefix(e.name, w)) || (!abbrev && e.name == w) {
			return gdToken{e.kind, e.val}
		}
	}
	if t, ok := findWord(gdZones, w); ok {
		return t
	}
	if w == "dst" {
		return gdToken{gdDST, 0}
	}
	if t, ok := findWord(gdUnits, w); ok {
		return t
	}
	if strings.HasSuffix(w, "s") {
		if t, ok := findWord(gdUnits, w[:len(w)-1]); ok {
			return t
		}
	}
	if t, ok := findWord(gdOthers, w); ok {
		return t
	}
	if len(w) == 1 {
		if h, ok := militaryZone(w[0]); ok {
			return gdToken{gdZone, h * 60}
		}
	}
	if bare := strings.ReplaceAll(w, ".", ""); bare != w {
		if t, ok := findWord(gdZones, bare); ok {
			return t
		}
	}
	return gdToken{gdOther, 0}
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// gdLex splits text into tokens, ending with gdEnd. Numbers wrap around
// as 64-bit integers; a sign not followed by a digit is dropped; a
// parenthesised comment (which may nest) is white space, and one left
// open ends the text. So does a byte above 0x7f: libpcp's lexer returns
// it as a negative char, which its parser takes for the end of input.
func gdLex(text string) []gdToken {
	var toks []gdToken
	i := 0
	for {
		i = skipSpace(text, i)
		if i == len(text) {
			return append(toks, gdToken{gdEnd, 0})
		}
		switch c := text[i]; {
		case c == '-' || c == '+':
			i++
			if i == len(text) || !isDigit(text[i]) {
				continue
			}
			n, j := gdDigits(text, i)
			if c == '-' {
				n = -n
			}
			toks = append(toks, gdToken{gdSigned, n})
			i = j
		case isDigit(c):
			n, j := gdDigits(text, i)
			toks = append(toks, gdToken{gdUnsigned, n})
			i = j
		case isAlpha(c):
			j := i
			for j < len(text) && (isAlpha(text[j]) || text[j] == '.') {
				j++
			}
			toks = append(toks, lookupWord(text[i:min(j, i+gdWordMax)]))
			i = j
		case c == '(':
			depth := 0
			for ; i < len(text); i++ {
				if text[i] == '(' {
					depth++
				} else if text[i] == ')' {
					depth--
				}
				if depth == 0 {
					break
				}
			}
			if i == len(text) {
				return append(toks, gdToken{gdEnd, 0})
			}
			i++
		case c >= 0x80:
			// a negative char, which the parser takes for the end
			return append(toks, gdToken{gdEnd, 0})
		default:
			kind := gdOther
			switch c {
			case ':':
				kind = gdColon
			case '/':
				kind = gdSlash
			case ',':
				kind = gdComma
			}
			toks = append(toks, gdToken{kind, 0})
			i++
		}
	}
}

func gdDigits(s string, i int) (int64, int) {
	var n int64
	for ; i < len(s) && isDigit(s[i]); i++ {
		n = 10*n + int64(s[i]-'0')
	}
	return n, i
}
