package actions

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hole marks where a value goes in the templates of these tests.
const hole = "\x00"

// expand puts v into each hole of tmpl, as a shell action's expansion does.
func expand(tmpl, v string) (string, error) {
	var q ShellQuoter
	q.Begin()
	var b []byte
	var first error
	parts := strings.Split(tmpl, hole)
	for i, p := range parts {
		b = q.Literal(b, p)
		if i < len(parts)-1 {
			var err error
			if b, err = q.Value(b, []byte(v)); err != nil && first == nil {
				first = err
			}
		}
	}
	return string(b), first
}

func TestShellQuoteText(t *testing.T) {
	for _, c := range []struct {
		tmpl, v, want, err string
	}{
		// plain values go in as pmie puts them
		{"echo Rule" + " " + hole + "%util[" + hole + "]@web01", "97.5", "echo Rule 97.5%util[97.5]@web01", ""},
		{"pmie_email 'root|Rule|host: " + hole + " fs: /home'", "web-01.example.com", "pmie_email 'root|Rule|host: web-01.example.com fs: /home'", ""},
		{"pmpost pmie: x " + hole, "/dev/mapper/vg0-root", "pmpost pmie: x /dev/mapper/vg0-root", ""},
		{"echo " + hole, "1.5e-05", "echo 1.5e-05", ""},
		// outside quotes: one word
		{"echo " + hole, "a b", "echo 'a b'", ""},
		{"echo " + hole, "it's", `echo 'it'\''s'`, ""},
		{"echo " + hole, "", "echo ''", ""},
		{"echo " + hole, "x;id>PWNED;", "echo 'x;id>PWNED;'", ""},
		{"echo " + hole, "?", "echo '?'", ""},
		{"echo pre" + hole + "post", "a b", "echo pre'a b'post", ""},
		// between single and double quotes
		{"echo '" + hole + "'", "it's", `echo 'it'\''s'`, ""},
		{"echo '" + hole + "'", "a b;c", "echo 'a b;c'", ""},
		{`echo "` + hole + `"`, "$x\"`\\", `echo "\$x\"\` + "`" + `\\"`, ""},
		{`echo "` + hole + `"`, "it's a;b", `echo "it's a;b"`, ""},
		{`echo "'` + hole + `'"`, "$(id)", `echo "'\$(id)'"`, ""},
		// nested command substitution is a new level outside quotes
		{`echo "$(echo ` + hole + `)"`, "a b", `echo "$(echo 'a b')"`, ""},
		{`echo "$(echo "` + hole + `")"`, "a$b", `echo "$(echo "a\$b")"`, ""},
		{`echo $(echo x)` + hole, "a b", `echo $(echo x)'a b'`, ""},
		{`echo ${HOME}` + hole, "a b", `echo ${HOME}'a b'`, ""},
		// a backslash in the text escapes the value's first byte
		{`echo \` + hole, ";id", `echo \;id`, ""},
		{`echo \` + hole, ";a b", `echo \;'a b'`, ""},
		{`echo \` + hole, ";", `echo \;`, ""},
		{`echo "\` + hole + `"`, "$(id)", `echo "\$(id)"`, ""},
		{`echo "\` + hole + `"`, "$$", `echo "\$\$"`, ""},
		// comments
		{"echo x # " + hole, "a;b c", "echo x # a;b c", ""},
		{"echo x # " + hole, "a\nid", "echo x # a\nid", "in a comment"},
		{"echo a#" + hole, "a b", "echo a#'a b'", ""},
		// opaque places take plain values only
		{"echo `echo " + hole + "`", "sda", "echo `echo sda`", ""},
		{"echo `echo " + hole + "`", "a b", "echo `echo a b`", "inside backquotes"},
		{"echo ${X:-" + hole + "}", "a b", "echo ${X:-a b}", "inside ${...}"},
		{"echo $" + hole, "a b", "echo $a b", "right after $"},
		{"echo $((1))" + hole, "a;b", "echo $((1))a;b", "inside $((...))"},
		{"cat <<EOF\n" + hole + "\nEOF", "a`id`", "cat <<EOF\na`id`\nEOF", "in a here-document"},
		{"echo $(case x in x) echo " + hole + ";; esac)", "a b", "echo $(case x in x) echo a b;; esac)", "after case inside (...)"},
		{"case x in x) echo " + hole + ";; esac", "a b", "case x in x) echo 'a b';; esac", ""},
		{"echo $'" + hole + "'", "a", "echo $'a'", ""},
		{"echo $'" + hole + "'", "a'", "echo $'a''", "inside $'...'"},
		// bash evaluates these as arithmetic or code, however quoted
		{"a[" + hole + "]=1 cmd", "a b", "a[a b]=1 cmd", "inside name[...] (a possible array subscript)"},
		{"x=$(date) a[" + hole + "]=1 cmd", "a b", "x=$(date) a[a b]=1 cmd", "inside name[...] (a possible array subscript)"},
		{"echo util[" + hole + "]", "a b", "echo util['a b']", ""},
		{"((x = " + hole + "))", "a[$(id)]", "((x = a[$(id)]))", "inside ((...))"},
		{"[[ 1 -eq " + hole + " ]]", "a[$(id)]", "[[ 1 -eq a[$(id)] ]]", "in the arguments of [["},
		{"let x=" + hole, "a[$(id)]", "let x=a[$(id)]", "in the arguments of let"},
		{"eval echo " + hole, "a;id", "eval echo a;id", "in the arguments of eval"},
		{"printf -v " + hole + " x", "a[$(id)]", "printf -v a[$(id)] x", "in the arguments of -v"},
		{"echo $(echo let) " + hole, "a b", "echo $(echo let) a b", "in the arguments of let"},
		{"echo x; echo " + hole, "a b", "echo x; echo 'a b'", ""},
		// after the backquotes end, quoting resumes
		{"echo `date` " + hole, "a b", "echo `date` 'a b'", ""},
	} {
		got, err := expand(c.tmpl, c.v)
		if got != c.want {
			t.Errorf("%q with %q:\n got %q\nwant %q", c.tmpl, c.v, got, c.want)
		}
		var qe *QuoteError
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%q with %q: unexpected error %v", c.tmpl, c.v, err)
		case c.err != "" && (!errors.As(err, &qe) || qe.Where != c.err):
			t.Errorf("%q with %q: error %v, want one about %s", c.tmpl, c.v, err, c.err)
		}
	}
}

// shellCase is a template and what the shell should print for a value put
// into it (ok false: the value may not go there).
type shellCase struct {
	tmpl string
	want func(v string) (out string, ok bool)
}

// brokenText is the output a case gives where the template itself is
// broken (in pmie too): nothing is checked.
const brokenText = "\x00broken"

func around(pre, post string) func(string) (string, bool) {
	return func(v string) (string, bool) { return pre + v + post, true }
}

// plainOnly is for opaque places.
func plainOnly(pre, post string) func(string) (string, bool) {
	return func(v string) (string, bool) { return pre + v + post, v == "" || plain([]byte(v)) }
}

// ignoring is for templates whose output does not hold the value.
func ignoring(want func(string) (string, bool)) func(string) (string, bool) {
	return func(v string) (string, bool) {
		_, ok := want(v)
		out, _ := want("")
		return out, ok
	}
}

var shellCases = []shellCase{
	{"printf '[%s]' " + hole, around("[", "]")},
	{"printf '[%s]' '" + hole + "'", around("[", "]")},
	{`printf '[%s]' "` + hole + `"`, around("[", "]")},
	{"printf '[%s]' a'b" + hole + "c'd", around("[ab", "cd]")},
	{"printf '[%s]' \"x\n" + hole + "\"", around("[x\n", "]")},
	{`printf '[%s]' "x$(printf '<%s>' ` + hole + `)y"`, around("[x<", ">y]")},
	{`printf '[%s]' "$(printf '<%s>' "` + hole + `")"`, around("[<", ">]")},
	{`printf '[%s]' "$(printf '<%s>' "$(printf '{%s}' ` + hole + `)")"`, around("[<{", "}>]")},
	{`(printf '[%s]' ` + hole + `)`, around("[", "]")},
	{`printf '[%s]' ${X}` + hole, around("[", "]")},
	{`printf '[%s]' $(printf a)` + hole, around("[a", "]")},
	{`case x in x) printf '[%s]' ` + hole + `;; esac`, around("[", "]")},
	{"printf '[%s]' \"" + hole + "\" '" + hole + "' " + hole, func(v string) (string, bool) {
		return "[" + v + "][" + v + "][" + v + "]", true
	}},
	{"printf '[%s]' x # " + hole, func(v string) (string, bool) {
		return "[x]", !strings.Contains(v, "\n")
	}},
	{`printf '[%s]' \` + hole + "x", func(v string) (string, bool) {
		if strings.HasPrefix(v, "\n") {
			v = v[1:] // a backslash and a newline join lines
		}
		return "[" + v + "x]", true
	}},
	{`printf '[%s]' "\` + hole + `"`, func(v string) (string, bool) {
		switch {
		case v == "":
			return brokenText, true // \" escapes the closing quote
		case v[0] == '\n':
			v = v[1:]
		case strings.IndexByte("$`\"\\", v[0]) < 0:
			v = `\` + v
		}
		return "[" + v + "]", true
	}},
	{"printf '[%s]' `printf '<%s>' " + hole + "`", plainOnly("[<", ">]")},
	{`printf '[%s]' "$(case x in x) printf '<%s>' ` + hole + `;; esac)"`, plainOnly("[<", ">]")},
	{"cat <<EOF\n" + hole + "\nEOF", plainOnly("", "\n")},
	{`printf '[%s]' $((1))` + hole, plainOnly("[1", "]")},
	{"(a[" + hole + "]=1) 2>/dev/null; printf '[%s]' x", ignoring(plainOnly("[x]", ""))},
	{"(x=$(printf a) a[" + hole + "]=1) 2>/dev/null; printf '[%s]' x", ignoring(plainOnly("[x]", ""))},
	{"eval printf \"'[%s]'\" " + hole, plainOnly("[", "]")},
	{"printf '[%s]' x -v " + hole, func(v string) (string, bool) {
		if v == "" {
			return "[x][-v]", true // in opaque places values go in as they are
		}
		return plainOnly("[x][-v][", "]")(v)
	}},
	{"printf '[%s]' util[" + hole + "]", around("[util[", "]]")},
}

// nastyValues are values an attacker might give an instance or host.
var nastyValues = []string{
	"sda", "/home", "97.5", "-1", "1.5e-05", "web-01.example.com", "local:", "012345 sleep",
	"x;touch PWNED;", "$(touch PWNED)", "`touch PWNED`", "'; touch PWNED; '", `"; touch PWNED; "`,
	"a\nb", "\ntouch PWNED\n", "a b  c", "*", "?", "[a]", "~root", "#x", "\\", `\'`, `\"`, "'", `"`,
	"", "a=b", "$HOME", "${IFS}", "!", "a\tb", "a\rb", "-n", "é", "\xff\xfe", "%i", "&", "|touch PWNED",
	"$((1+1))", "<PWNED", ">PWNED", "{a,b}", "a\\\ntouch PWNED", `\$(touch PWNED)`, "'\"'\"'",
	"$'\\x41'", ")", "(", "x)touch PWNED;(", "esac; touch PWNED; case x in x)", "a[$(touch PWNED)]",
}

// shells are the shells the quoting is checked with: /bin/sh and bash.
func shells(t testing.TB) []string {
	var out []string
	seen := map[string]bool{}
	for _, sh := range []string{"/bin/sh", "bash", "dash"} {
		p, err := exec.LookPath(sh)
		if err != nil {
			continue
		}
		if real, err := filepath.EvalSymlinks(p); err == nil && !seen[real] {
			seen[real] = true
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		t.Skip("no shell")
	}
	return out
}

// runShell runs text with sh in dir and returns its standard output,
// failing t if the payload's file appears.
func runShell(t testing.TB, sh, dir, text string) string {
	t.Helper()
	c := exec.Command(sh, "-c", text)
	c.Dir = dir
	c.Env = []string{"PATH=/usr/bin:/bin", "HOME=/nonexistent"}
	out, err := c.Output()
	if err != nil {
		t.Errorf("%s -c %q: %v", sh, text, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
		t.Errorf("%s -c %q ran the injected command", sh, text)
		os.Remove(filepath.Join(dir, "PWNED"))
	}
	return string(out)
}

// expandCase puts v into c's template. It returns the text and what the
// shell should print, or run false where the quoter refuses (as it must
// exactly where c says) or the template is broken.
func expandCase(t testing.TB, c shellCase, v string) (text, want string, run bool) {
	t.Helper()
	want, ok := c.want(v)
	if want == brokenText {
		return "", "", false
	}
	text, err := expand(c.tmpl, v)
	switch {
	case !ok && err == nil:
		t.Errorf("%q with %q: no error, want a refusal (text %q)", c.tmpl, v, text)
	case ok && err != nil:
		t.Errorf("%q with %q: %v", c.tmpl, v, err)
	}
	return text, want, ok && err == nil
}

// separator comes between the outputs of cases run in one shell.
const separator = "\n<<-- next case -->>\n"

// TestShellQuoteInShell runs every template with every value through the
// real shells (all in one run of each shell): each prints exactly what it
// means and none runs the injected command.
func TestShellQuoteInShell(t *testing.T) {
	dir := t.TempDir()
	var script strings.Builder
	var texts, wants []string
	for _, v := range nastyValues {
		for _, c := range shellCases {
			if text, want, ok := expandCase(t, c, v); ok {
				script.WriteString(text + "\nprintf '" + strings.ReplaceAll(separator, "\n", `\n`) + "'\n")
				texts, wants = append(texts, text), append(wants, want)
			}
		}
	}
	for _, sh := range shells(t) {
		outs := strings.Split(runShell(t, sh, dir, script.String()), separator)
		if len(outs) != len(texts)+1 {
			t.Errorf("%s: %d outputs for %d cases:\n%s", sh, len(outs)-1, len(texts), script.String())
			continue
		}
		for i, text := range texts {
			if outs[i] != wants[i] {
				t.Errorf("%s -c %q:\n got %q\nwant %q", sh, text, outs[i], wants[i])
			}
		}
	}
}

func FuzzShellQuote(f *testing.F) {
	for i, v := range nastyValues {
		f.Add(uint8(i%len(shellCases)), v)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, which uint8, v string) {
		if strings.IndexByte(v, 0) >= 0 {
			return // no argument of a program can hold a NUL
		}
		text, want, ok := expandCase(t, shellCases[int(which)%len(shellCases)], v)
		if ok {
			if got := runShell(t, "/bin/sh", dir, text); got != want {
				t.Errorf("sh -c %q:\n got %q\nwant %q", text, got, want)
			}
		}
	})
}

// BenchmarkShellQuote puts 1000 values (half plain, half needing quotes)
// into the text of pmieconf's email action, as a rule true for 1000
// instances would.
func BenchmarkShellQuote(b *testing.B) {
	vals := make([][]byte, 1000)
	for i := range vals {
		if i%2 == 0 {
			vals[i] = []byte(fmt.Sprintf("/dev/mapper/vg%d-root", i))
		} else {
			vals[i] = []byte(fmt.Sprintf("%06d it's (a b)", i))
		}
	}
	var q ShellQuoter
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		q.Begin()
		buf = q.Literal(buf[:0], "pmie_email 'root|File system is filling up")
		for _, v := range vals {
			buf = q.Literal(buf, "|host: ")
			buf, _ = q.Value(buf, []byte("web-01"))
			buf = q.Literal(buf, " filesystem: ")
			buf, _ = q.Value(buf, v)
			buf = q.Literal(buf, " used: 97%")
		}
		buf = q.Literal(buf, "'")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(vals)), "ns/inst")
}

// readerState is what of a reader's state a value must not change, after
// reading text; "" if the reader stopped following it (where plain values
// may read differently: x[ may open a subscript, 0[ not).
func readerState(text string) string {
	var r shellReader
	r.text(text)
	ctx, why := r.context()
	if ctx == ctxOpaque {
		return ""
	}
	return fmt.Sprint(ctx, why, r.frames[:r.n+1], r.comment, r.esc)
}

// FuzzShellReader puts a value into any template: the reader must not
// panic, and a value put in without error leaves the text, as the reader
// reads it, where the plain value x would (the value is text, not syntax).
func FuzzShellReader(f *testing.F) {
	for i, c := range shellCases {
		f.Add(c.tmpl, nastyValues[i%len(nastyValues)])
	}
	f.Add("echo '"+hole+"' \""+hole+"\" "+hole+" # "+hole, "a'b\"c$(d)`e`\nf")
	f.Fuzz(func(t *testing.T, tmpl, v string) {
		text, err := expand(tmpl, v)
		if err != nil || v == "" {
			return // an empty value may be nothing, which x is not
		}
		plainText, err := expand(tmpl, "x")
		if err != nil {
			t.Fatalf("%q: x refused: %v", tmpl, err)
		}
		if a, b := readerState(text), readerState(plainText); a != b && a != "" && b != "" {
			t.Errorf("%q with %q gives %q, read as %s; with x %s", tmpl, v, text, a, b)
		}
	})
}
