// Package config reads and checks pmie's daemon configuration file (for
// pmie-notify, which pmie asks to read it): rule files, derived metric
// files, sources, the HTTP endpoint, the MMV file, and alerting (package
// notify's keys), with viper, and the PMIE_* environment variables that
// override them. Every problem is reported with its place.
package config

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/gopcp/pmie/daemon/wire"
	"github.com/gopcp/pmie/internal/yamlcfg"
	"github.com/gopcp/pmie/notify"
	"github.com/gopcp/pmie/pmapi"
)

// Config is the daemon's configuration file, checked. Of its settings,
// the rule files and derived metric files are absolute (names in the
// file are taken from its directory); Listen is the HTTP endpoint's
// host:port ("" for none), MMV the MMV file's name ("" for none), Watch
// whether pmie reloads when a file changes.
type Config struct {
	wire.Settings
	Alerting *notify.Config // nil: no alerting
}

// EnvPrefix starts the environment variables that override the file's
// settings: PMIE_HTTP_LISTEN_ADDRESS for http.listen_address, and so on.
const EnvPrefix = "PMIE"

// envKeys are the settings the environment may override.
var envKeys = []string{"rule_files", "derived_files", "sources.host", "sources.local", "sources.interval",
	"http.listen_address", "mmv", "watch", "timezone", "default_receiver", "shutdown_timeout", "fleet.shard", "state_file"}

// topKeys are the file's own top-level keys (the alerting keys are
// notify's).
var topKeys = []string{"rule_files", "derived_files", "sources", "http", "mmv", "watch", "fleet", "state_file"}

// DefaultMMV is the MMV file's name unless the file says otherwise.
const DefaultMMV = "pmie"

// Load reads and checks the daemon configuration in file.
func Load(file string) (*Config, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("cannot read the daemon configuration: %w", err)
	}
	return Parse(file, data)
}

// Parse reads and checks a daemon configuration in YAML. Every problem
// found is reported, one a line, as "file:line:col: key: reason".
func Parse(file string, data []byte) (*Config, error) {
	m, d, err := yamlcfg.Read(file, data, EnvPrefix, envKeys)
	if err != nil {
		return nil, err
	}
	d.Unknown(m, "", append(append([]string{}, topKeys...), notify.Keys...))
	cfg := &Config{Settings: wire.Settings{File: file, MMV: DefaultMMV, Watch: true}}
	dir := filepath.Dir(file)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	cfg.RuleFiles = files(d, m, "rule_files", dir)
	cfg.DerivedFiles = files(d, m, "derived_files", dir)
	if src := d.Mapping(m, "", "sources"); src != nil {
		d.Unknown(src, "sources", []string{"host", "local", "interval"})
		cfg.Host = d.Str(src, "sources", "host")
		d.Bool(src, "sources", "local", &cfg.Local)
		if cfg.Interval = d.Str(src, "sources", "interval"); cfg.Interval != "" {
			if iv, err := pmapi.ParseInterval(cfg.Interval); err != nil || iv <= 0 {
				d.Errorf("sources.interval", "not a sample interval such as \"10 sec\" or \"1min\": %q", cfg.Interval)
			}
		}
		if cfg.Host != "" && cfg.Local {
			d.Errorf("sources.local", "give host or local, not both")
		}
	}
	if h := d.Mapping(m, "", "http"); h != nil {
		d.Unknown(h, "http", []string{"listen_address"})
		if cfg.Listen = d.Str(h, "http", "listen_address"); cfg.Listen != "" {
			if err := wire.CheckListen(cfg.Listen); err != nil {
				d.Errorf("http.listen_address", "%v", err)
			}
		}
	}
	if x, ok := m["mmv"]; ok {
		// false in the file, or "false" from $PMIE_MMV (a string there)
		if v, isBool := x.(bool); isBool && !v || x == "false" {
			cfg.MMV = ""
		} else if cfg.MMV = d.Str(m, "", "mmv"); cfg.MMV != "" && !mmvName.MatchString(cfg.MMV) {
			d.Errorf("mmv", "must be a name of letters, digits and _ (the metrics are mmv.NAME.*), or false, not %q", cfg.MMV)
		}
	}
	d.Bool(m, "", "watch", &cfg.Watch)
	cfg.Fleet = decodeFleet(d, m, cfg, dir)
	if f := d.Str(m, "", "state_file"); f != "" {
		cfg.StateFile = absolute(f, dir)
		if st, err := os.Stat(filepath.Dir(cfg.StateFile)); err != nil || !st.IsDir() {
			d.Errorf("state_file", "its directory must exist: %s", filepath.Dir(cfg.StateFile))
		}
	}
	cfg.Alerting = notify.Decode(d, m)
	cfg.Settings.Alerting = cfg.Alerting != nil
	if err := d.Err(); err != nil {
		return nil, err
	}
	if abs, err := filepath.Abs(file); err == nil {
		cfg.File = abs
	}
	return cfg, nil
}

var mmvName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,62}$`)

// files reads a list of file names, taken from dir if relative; each
// must be a file that can be read.
func files(d *yamlcfg.Decoder, m map[string]any, key, dir string) []string {
	var out []string
	for i, f := range d.StrList(m, "", key) {
		if !filepath.IsAbs(f) {
			f = filepath.Join(dir, f)
		}
		st, err := os.Stat(f)
		switch {
		case err != nil:
			d.Errorf(fmt.Sprintf("%s[%d]", key, i), "%v", err)
		case st.IsDir():
			d.Errorf(fmt.Sprintf("%s[%d]", key, i), "%s is a directory", f)
		default:
			out = append(out, f)
		}
	}
	return out
}
