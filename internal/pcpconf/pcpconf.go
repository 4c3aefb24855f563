// Package pcpconf reads PCP's configuration variables as libpcp's
// pmGetConfig(3) does: from the environment first, then from pcp.conf
// ($PCP_CONF, else $PCP_DIR/etc/pcp.conf, else /etc/pcp.conf). It knows
// Debian's values for the variables our commands use, for machines
// without PCP.
package pcpconf

import (
	"bytes"
	"os"
	"path/filepath"
)

// defaults are Debian's values of the variables our commands use.
var defaults = map[string]string{
	"PCP_BIN_DIR":     "/usr/bin",
	"PCP_BINADM_DIR":  "/usr/lib/pcp/bin",
	"PCP_LOG_DIR":     "/var/log/pcp",
	"PCP_RUN_DIR":     "/run/pcp",
	"PCP_SYSCONF_DIR": "/etc/pcp",
	"PCP_TMP_DIR":     "/var/lib/pcp/tmp",
	"PCP_USER":        "pcp",
	"PCP_VAR_DIR":     "/var/lib/pcp",
}

// Get is the value of the PCP configuration variable name.
func Get(name string) string { return Lookup(os.Getenv, name) }

// Lookup is Get with the environment read through getenv.
func Lookup(getenv func(string) string, name string) string {
	if v := getenv(name); v != "" {
		return v
	}
	if v, ok := fromFile(confPath(getenv), name); ok {
		return v
	}
	return defaults[name]
}

// confPath is where pcp.conf is.
func confPath(getenv func(string) string) string {
	if p := getenv("PCP_CONF"); p != "" {
		return p
	}
	if d := getenv("PCP_DIR"); d != "" {
		return filepath.Join(d, "etc", "pcp.conf")
	}
	return "/etc/pcp.conf"
}

// fromFile finds name=value in the pcp.conf at path.
func fromFile(path, name string) (string, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	for rest := b; len(rest) > 0; {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if k, v, ok := bytes.Cut(bytes.TrimSpace(line), []byte("=")); ok && string(k) == name && len(v) > 0 {
			return string(bytes.Trim(v, `"'`)), true
		}
	}
	return "", false
}
