package pcpconf

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "pcp.conf")
	text := "# comment\nPCP_TMP_DIR=/x/tmp\nPCP_RUN_DIR=\"/x/run\"\nPCP_TMP_DIR=/second\n" +
		"PCP_SYSCONF_DIR=\nPCP_LOG_DIR = /spaced\nPCP_USER='\nPCP_BIN_DIR=\"/x/bin'\n#PCP_PMDAS_DIR=/c\n" +
		"PCP_SA_DIR=/a\x00b\nPCP_ETC_DIR=/e\r\n"
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PCP_CONF": conf, "PCP_VAR_DIR": "/env/var", "PCP_BINADM_DIR": ""}
	getenv := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	for name, want := range map[string]string{
		"PCP_VAR_DIR":     "/env/var",  // the environment first
		"PCP_BINADM_DIR":  "",          // even when empty
		"PCP_TMP_DIR":     "/x/tmp",    // then pcp.conf, its first line
		"PCP_RUN_DIR":     "/x/run",    // quotes dropped
		"PCP_SYSCONF_DIR": "",          // an empty value is a value
		"PCP_LOG_DIR":     "",          // "PCP_LOG_DIR " is another name
		"PCP_USER":        "",          // a lone quote is a pair
		"PCP_BIN_DIR":     "\"/x/bin'", // quotes that do not match stay
		"PCP_PMDAS_DIR":   "",          // a comment
		"PCP_SA_DIR":      "/a",        // to a NUL byte
		"PCP_ETC_DIR":     "/e\r",      // only the newline goes
		"PCP_NOSUCH":      "",
	} {
		got, err := New(getenv).Get(name)
		if got != want || err != nil {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
	if v, ok := New(getenv).Optional("PCP_NOSUCH"); ok || v != "" {
		t.Errorf("Optional(PCP_NOSUCH) = %q, %v", v, ok)
	}

	env = map[string]string{"PCP_DIR": dir}
	if err := os.MkdirAll(filepath.Join(dir, "etc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "etc", "pcp.conf"), []byte("PCP_TMP_DIR=/y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Lookup(getenv, "PCP_TMP_DIR"); got != "/y" {
		t.Errorf("with PCP_DIR: %q", got)
	}
}

// TestLongLine checks that a line is read in pieces of 4095 bytes, as
// fgets(3) into libpcp's buffer reads it, and a value kept to 4095.
func TestLongLine(t *testing.T) {
	long := strings.Repeat("v", 5000)
	vars := parse([]byte("PCP_A=" + long + "\nPCP_B=" + long[:maxLine-len("PCP_B=")] + "PCP_C=c\n"))
	if got := vars["PCP_A"]; got != long[:maxLine-len("PCP_A=")] {
		t.Errorf("PCP_A has %d bytes", len(got))
	}
	if got := vars["PCP_C"]; got != "c" {
		t.Errorf("PCP_C = %q, want the rest of the long line", got)
	}
}

// TestMissing checks that a pcp.conf the environment names but that
// cannot be read is libpcp's fatal error, and that the environment's
// values are still given, and no others.
func TestMissing(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		path string
	}{
		{map[string]string{"PCP_CONF": "/nonexistent", "PCP_TMP_DIR": "/t"}, "/nonexistent"},
		{map[string]string{"PCP_CONF": "", "PCP_TMP_DIR": "/t"}, ""},
		{map[string]string{"PCP_DIR": "/nonexistent", "PCP_TMP_DIR": "/t"}, "/nonexistent/etc/pcp.conf"},
	} {
		getenv := func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }
		v, err := New(getenv).Get("PCP_TMP_DIR")
		var fe *FatalError
		if !errors.As(err, &fe) || v != "/t" {
			t.Fatalf("%v: %q, %v", c.env, v, err)
		}
		want := "FATAL PCP ERROR: could not open config file \"" + c.path + "\" : No such file or directory\n" +
			"You may need to set PCP_CONF or PCP_DIR in your environment.\n"
		if err.Error() != want {
			t.Errorf("%v: %q, want %q", c.env, err.Error(), want)
		}
		if v, _ := New(getenv).Get("PCP_RUN_DIR"); v != "" {
			t.Errorf("%v: PCP_RUN_DIR %q, want none", c.env, v)
		}
	}
}

// TestReadAgainWhenChanged: pcp.conf is read once while it stays the
// same file, and again when it changes (or another is named).
func TestReadAgainWhenChanged(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "pcp.conf")
	env := map[string]string{"PCP_CONF": conf}
	lookupEnv := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	for _, want := range []string{"/one", "/second"} {
		if err := os.WriteFile(conf, []byte("PCP_TMP_DIR="+want+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if got := Lookup(lookupEnv, "PCP_TMP_DIR"); got != want {
				t.Errorf("PCP_TMP_DIR = %q, want %q", got, want)
			}
		}
	}
	other := filepath.Join(dir, "other.conf")
	if err := os.WriteFile(other, []byte("PCP_TMP_DIR=/other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env["PCP_CONF"] = other
	if got := Lookup(lookupEnv, "PCP_TMP_DIR"); got != "/other" {
		t.Errorf("PCP_TMP_DIR from %s = %q, want /other", other, got)
	}
}
