package pmieconf

import (
	"strconv"
	"strings"
)

// CFormat is msg printed as a printf format with no arguments, as glibc's
// printf prints it, as far as that does not depend on what the arguments
// would have been. pmieconf prints some of its messages, names given to
// it included, as formats.
//
// A conversion specification is read as glibc reads it: flags, width,
// precision, length modifiers, then the conversion character. "%%" (with
// any flags, width or precision) is a '%'. A conversion glibc does not
// know is printed back in a normal form (flags in a fixed order, width,
// precision, the character), and the text goes on after it. A
// specification cut off by the end of the message, or with a width or
// precision too big for an int, ends the output there. A conversion that
// prints an argument (%d, %s, a '*' width, a positional %1$...), or %m
// (errno's message), prints whatever pmieconf's stack or errno held,
// which we cannot know, so it is left as it is.
func CFormat(msg string) string {
	var b strings.Builder
	for i := 0; i < len(msg); i++ {
		if msg[i] != '%' {
			b.WriteByte(msg[i])
			continue
		}
		spec, n := readSpec(msg[i+1:])
		switch spec.kind {
		case specEnd:
			return b.String()
		case specPercent:
			b.WriteByte('%')
		case specUnknown:
			b.WriteString(spec.unknown())
		case specArgument:
			b.WriteByte('%')
			continue // the rest is printed as text
		}
		i += n
	}
	return b.String()
}

// What a conversion specification turns out to be.
const (
	specArgument = iota // prints an argument: left as it is
	specPercent         // "%%": a '%'
	specUnknown         // a character glibc has no conversion for
	specEnd             // cut off, or a number too big: output ends
)

// cSpec is one conversion specification, as glibc's printf_info has it.
type cSpec struct {
	kind                              int
	alt, group, showsign, space, left bool
	zero, i18n                        bool
	width, prec                       int // prec is -1 when not given
	conv                              byte
}

// argConversions are the conversion characters glibc 2.36 prints an
// argument for, and %m.
const argConversions = "diouxXeEfFgGaAcspnmCSbB"

// readSpec reads the specification after a '%': what it is and how many
// bytes of s it takes.
func readSpec(s string) (cSpec, int) {
	sp := cSpec{prec: -1}
	i := 0
	if j := digits(s); j > 0 && j < len(s) && s[j] == '$' {
		return sp, 0 // positional: "%1$d"
	}
flags:
	for ; i < len(s); i++ {
		switch s[i] {
		case ' ':
			sp.space = true
		case '+':
			sp.showsign = true
		case '-':
			sp.left, sp.zero = true, false
		case '#':
			sp.alt = true
		case '0':
			sp.zero = !sp.left
		case '\'':
			sp.group = true
		case 'I':
			sp.i18n = true
		default:
			break flags
		}
	}
	if i < len(s) && s[i] == '*' {
		return sp, 0
	}
	if j := digits(s[i:]); j > 0 {
		w, err := strconv.ParseInt(s[i:i+j], 10, 32)
		if err != nil {
			return cSpec{kind: specEnd}, 0
		}
		sp.width, i = int(w), i+j
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i < len(s) && s[i] == '*' {
			return sp, 0
		}
		sp.prec = 0
		if j := digits(s[i:]); j > 0 {
			p, err := strconv.ParseInt(s[i:i+j], 10, 32)
			if err != nil {
				return cSpec{kind: specEnd}, 0
			}
			sp.prec, i = int(p), i+j
		}
	}
	i += lengthModifier(s[i:])
	switch {
	case i == len(s):
		sp.kind = specEnd
	case s[i] == '%':
		sp.kind = specPercent
	case strings.IndexByte(argConversions, s[i]) >= 0:
		sp.kind = specArgument
	default:
		sp.kind, sp.conv = specUnknown, s[i]
	}
	return sp, i + 1
}

// digits is how many decimal digits s starts with.
func digits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// lengthModifier is how many bytes of length modifier s starts with:
// hh, h, ll, l, L, q, j, z, Z, t.
func lengthModifier(s string) int {
	switch {
	case strings.HasPrefix(s, "hh"), strings.HasPrefix(s, "ll"):
		return 2
	case s != "" && strings.IndexByte("hlLqjzZt", s[0]) >= 0:
		return 1
	}
	return 0
}

// unknown is the specification as glibc prints one whose conversion it
// does not know.
func (sp cSpec) unknown() string {
	var b strings.Builder
	b.WriteByte('%')
	for _, f := range []struct {
		on bool
		c  byte
	}{{sp.alt, '#'}, {sp.group, '\''}, {sp.showsign, '+'}, {sp.space && !sp.showsign, ' '},
		{sp.left, '-'}, {sp.zero, '0'}, {sp.i18n, 'I'}} {
		if f.on {
			b.WriteByte(f.c)
		}
	}
	if sp.width != 0 {
		b.WriteString(strconv.Itoa(sp.width))
	}
	if sp.prec != -1 {
		b.WriteString("." + strconv.Itoa(sp.prec))
	}
	b.WriteByte(sp.conv)
	return b.String()
}
