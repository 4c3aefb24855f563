package pcpconf

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLookup(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "pcp.conf")
	if err := os.WriteFile(conf, []byte("# comment\nPCP_TMP_DIR=/x/tmp\nPCP_RUN_DIR=\"/x/run\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PCP_CONF": conf, "PCP_VAR_DIR": "/env/var"}
	getenv := func(k string) string { return env[k] }
	for name, want := range map[string]string{
		"PCP_VAR_DIR": "/env/var", // the environment first
		"PCP_TMP_DIR": "/x/tmp",   // then pcp.conf
		"PCP_RUN_DIR": "/x/run",   // quotes dropped
		"PCP_USER":    "pcp",      // then Debian's value
		"PCP_NOSUCH":  "",         // nothing known
		"PCP_LOG_DIR": defaults["PCP_LOG_DIR"],
	} {
		if got := Lookup(getenv, name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
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
