package pmieconf

import (
	"strings"
	"testing"
)

// cformatCases are messages and what glibc 2.36's vfprintf printed for
// each used as a format with no arguments (a C program printing them as
// pmieconf's error() does, on stderr, then a newline).
var cformatCases = []struct{ msg, want string }{
	{"plain", "plain"},
	{"100%", "100"},
	{"%%", "%"},
	{"a%%b", "a%b"},
	{"%5%", "%"},
	{"%-5%", "%"},
	{"%.%", "%"},
	{"x%.", "x"},
	{`a%."b`, `a%.0"b`},
	{`%-5.3"x`, `%-5.3"x`},
	{`%#0 +-12.7"`, `%#+-12.7"`},
	{"%5", ""},
	{"%.5", ""},
	{"% ", ""},
	{`%'"`, `%'"`},
	{`%ll"`, `%"`},
	{`%hh"`, `%"`},
	{`%q"`, `%"`},
	{`%Z"`, `%"`},
	{`%z"`, `%"`},
	{`%L"`, `%"`},
	{`%j"`, `%"`},
	{`%t"`, `%"`},
	{`%0"`, `%0"`},
	{`%00"`, `%0"`},
	{`%01"`, `%01"`},
	{`%.01"`, `%.1"`},
	{`%-0"`, `%-"`},
	{`%0-"`, `%-"`},
	{`%I"`, `%I"`},
	{`% -"`, `% -"`},
	{`% +"`, `%+"`},
	{`%-0 5"`, `% -5"`},
	{`%05-"`, `%05-"`},
	{`%#-#"`, `%#-"`},
	{"%..", "%.0."},
	{`%.-3"`, `%.0-3"`},
	{"%,", "%,"},
	{`%w8"`, `%w8"`},
	{`%H"`, `%H"`},
	{`%2147483647"`, `%2147483647"`},
	{`%2147483648"`, ""},
	{`%.2147483648" tail`, ""},
	{"a%2147483648xyz", "a"},
	{"%!", "%!"},
	{"x%", "x"},
	{"%.0", ""},
	{"%l", ""},
	{"one%,two%;three", "one%,two%;three"},
	{`%hhh"`, `%h"`},
	{`%lll"`, `%l"`},
	// conversions that print an argument (or errno) are left as they are
	{"no match \"%d\"", "no match \"%d\""},
	{"%5.2f and %s", "%5.2f and %s"},
	{"%*d", "%*d"},
	{"%1$s", "%1$s"},
	{"%m", "%m"},
}

// TestCFormat compares CFormat with glibc's printing of cformatCases.
func TestCFormat(t *testing.T) {
	for _, c := range cformatCases {
		if got := CFormat(c.msg); got != c.want {
			t.Errorf("CFormat(%q) = %q, glibc printed %q", c.msg, got, c.want)
		}
	}
}

// FuzzCFormat checks that no message makes CFormat panic, that text
// without a '%' is printed as it is, and that what comes before the
// first '%' always is.
func FuzzCFormat(f *testing.F) {
	for _, c := range cformatCases {
		f.Add(c.msg)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		got := CFormat(msg)
		head, _, found := strings.Cut(msg, "%")
		if !found && got != msg {
			t.Fatalf("CFormat(%q) = %q, want it unchanged", msg, got)
		}
		if !strings.HasPrefix(got, head) {
			t.Fatalf("CFormat(%q) = %q, lost the text before the first %%", msg, got)
		}
	})
}
