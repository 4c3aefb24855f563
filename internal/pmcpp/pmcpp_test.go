package pmcpp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuirks runs inputs whose output and messages were recorded from
// real pmcpp 6.0.3 ("pmcpp f" in the file's directory).
func TestQuirks(t *testing.T) {
	for _, c := range []struct {
		name, in, out, stderr string
		ok                    bool
	}{
		{"macro", "#define D 60\nroot {\n  a D:0:1 aD D_x\n}\n",
			"# 1 \"f\"\n\nroot {\n  a 60:0:1 aD D_x\n}\n", "", true},
		// an #else made true leaves a nameless macro: a second is a redefinition
		{"second-else", "#ifdef X\n#else\n#endif\n#ifdef Y\n#else\n#endif\n",
			"# 1 \"f\"\n\n\n\n\n", "pmcpp: f[5]: #else\npmcpp: Error: Macro redefinition\n", false},
		{"else-after-undef", "#define A 1\n#undef A\n#ifdef X\n#else\n#endif\n",
			"# 1 \"f\"\n\n\n\n", "pmcpp: f[4]: #else\npmcpp: Error: Macro redefinition\n", false},
		// a '#' line that is no directive is text, and ends the skipping
		{"hash-line", "#ifdef X\n# foo\nhello\n#endif\n", "# 1 \"f\"\n\n# foo\nhello\n\n", "", true},
		// a NUL ends what is kept of a line, which runs on into the next
		{"nul", "abc\x00def\nghi\n", "# 1 \"f\"\nabcghi\n", "", true},
		// ... of what one fgets read: a longer line is read on into a
		// buffer twice the size, after what was kept
		{"nul-long-line", "a\x00" + strings.Repeat("0", 300) + "\nc\n", "# 1 \"f\"\na" + strings.Repeat("0", 47) + "\nc\n", "", true},
		{"no-newline", "root { a 1:1:1 }", "# 1 \"f\"\n", "", true},
		{"if-line-of-match", "#define X\n#ifdef X\n", "# 1 \"f\"\n\n\n",
			"pmcpp: f:\npmcpp: Error: End of input and no matching #endif for #ifdef or #ifndef at line 0\n", false},
		{"prefix-keywords", "#defineX 1\nX\n#elsewhere\n", "# 1 \"f\"\n\n1\n",
			"pmcpp: f[3]: #elsewhere\npmcpp: Error: Unexpected extra text in a control line\n", false},
		{"comments", "/* a\n#define Q 2 */ Q\nQ /* b */ x\n", "# 1 \"f\"\n\n               Q\nQ         x\n", "", true},
		{"redefine", "#define D 1\n#define D 2\n", "# 1 \"f\"\n\n", "pmcpp: f[2]: #define D 2\npmcpp: Error: Macro redefinition\n", false},
		{"open-comment", "root {\n}\n/* open\n", "# 1 \"f\"\nroot {\n}\n\n",
			"pmcpp: f:\npmcpp: Error: Comment at line 3 not terminated before end of file\n", false},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f"), []byte(c.in), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir)
		var stderr strings.Builder
		out, ok := Config{VarDir: dir}.Run("f", &stderr)
		if string(out) != c.out || stderr.String() != c.stderr || ok != c.ok {
			t.Errorf("%s: got %q, %q, %v\nwant %q, %q, %v", c.name, out, stderr.String(), ok, c.out, c.stderr, c.ok)
		}
	}
}

// TestNoNewline reads a file that never ends a line: pmcpp's buffer
// doubles until its realloc fails, with pmNoMem's fatal error, as real
// pmcpp 6.0.3 on /dev/zero (ours ran out of memory).
func TestNoNewline(t *testing.T) {
	var stderr strings.Builder
	out, ok := Config{}.Run("/dev/zero", &stderr)
	const want = "Error: pmcpp: ibuf realloc: malloc(18446744071562067968) failed: Cannot allocate memory\n"
	if string(out) != "# 1 \"/dev/zero\"\n" || ok || !strings.HasSuffix(stderr.String(), want) {
		t.Errorf("got %q, %q, %v", out, stderr.String(), ok)
	}
}

// TestInclude checks where an included file is looked for (the name
// itself, then the top file's directory, then $PCP_VAR_DIR/pmns) and the
// markers around it; recorded from real pmcpp 6.0.3 run in dir with
// PCP_VAR_DIR=dir/var.
func TestInclude(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"top/f":         "#include \"inner\"\n#include <far>\nend\n",
		"top/inner":     "#include \"deeper\"\ninner\n",
		"top/deeper":    "deeper\n",
		"var/pmns/far":  "far\n",
		"top/too-deep":  "#include \"too-deep\"\n",
		"top/missing":   "\n#include \"nowhere\"\n",
		"top/shell":     "#shell \"echo from shell; exit 3\"\n",
		"top/bad-quote": "#include \"inner\n",
	} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	cfg := Config{VarDir: filepath.Join(dir, "var")}
	for _, c := range []struct{ file, out, stderr string }{
		{"top/f", "# 1 \"top/f\"\n# 1 \"top/inner\"\n# 1 \"top/deeper\"\ndeeper\n# 2 \"top/inner\"\ninner\n" +
			"# 2 \"top/f\"\n# 1 \"" + dir + "/var/pmns/far\"\nfar\n# 3 \"top/f\"\nend\n", ""},
		{"top/too-deep", "# 1 \"top/too-deep\"\n# 1 \"top/too-deep\"\n# 1 \"top/too-deep\"\n# 1 \"top/too-deep\"\n# 1 \"top/too-deep\"\n",
			"pmcpp: top/too-deep[1]: #include \"too-deep\"\npmcpp: Error: #include and/or #shell nesting too deep\n"},
		{"top/missing", "# 1 \"top/missing\"\n\n", "pmcpp: top/missing[2]: #include \"nowhere\"\npmcpp: Error: Cannot open file for #include\n"},
		{"top/shell", "# 1 \"top/shell\"\n# 1 \"<shell>\"\nfrom shell\n# 2 \"top/shell\"\n", "Warning: #shell cmd returns 3 exit status\n"},
		{"top/bad-quote", "# 1 \"top/bad-quote\"\n", "pmcpp: top/bad-quote[1]: #include \"inner\npmcpp: Error: Expected \" after file name\n"},
		{"top", "", "pmcpp: top:\npmcpp: Error: No such file or directory\n"},
	} {
		var stderr strings.Builder
		out, _ := cfg.Run(c.file, &stderr)
		if string(out) != c.out || stderr.String() != c.stderr {
			t.Errorf("%s: got %q, %q\nwant %q, %q", c.file, out, stderr.String(), c.out, c.stderr)
		}
	}
}

func TestDirname(t *testing.T) {
	// glibc's dirname(3)
	for in, want := range map[string]string{"a": ".", "a/": ".", "/a": "/", "//": "//", "//a": "//",
		"///a": "/", "a//b": "a", "a/b/": "a", "": ".", "/": "/", "/a/b": "/a", "..": ".", "../x": ".."} {
		if got := dirname(in); got != want {
			t.Errorf("dirname(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzRun preprocesses arbitrary text: pmcpp must never panic, and its
// output keeps a marker first. Inputs with #include or #shell are passed
// over, as they would read other files or run commands.
func FuzzRun(f *testing.F) {
	for _, s := range []string{"#define D 60\nroot {\n  a D:0:1\n}\n", "#ifdef X\n#else\n#endif\n",
		"/* a\n#define Q 2 */ Q\n", "#define A 'b c' x\n", "#undef\n", "abc\x00def\n", "#define\t\n", "/*/\n"} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, in []byte) {
		if strings.Contains(string(in), "#include") || strings.Contains(string(in), "#shell") {
			t.Skip()
		}
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, in, 0o644); err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		out, _ := Config{VarDir: dir}.Run(p, &stderr)
		if !strings.HasPrefix(string(out), "# 1 \"") {
			t.Errorf("output %q does not start with a marker", out)
		}
	})
}
