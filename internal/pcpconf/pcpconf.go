// Package pcpconf reads PCP's configuration variables as libpcp's
// pmGetConfig(3) does: from the environment first (a variable set there
// counts even when empty), then from pcp.conf ($PCP_CONF, else
// $PCP_DIR/etc/pcp.conf, else /etc/pcp.conf). It knows Debian's values
// for the variables our commands use, for machines without PCP: those
// where no pcp.conf is named and /etc/pcp.conf is absent.
package pcpconf

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/gopcp/pmie/pmapi"
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
func Get(name string) string { return Lookup(os.LookupEnv, name) }

// Lookup is Get with the environment read through lookupEnv, never
// fatal: where a pcp.conf the environment names cannot be read, only the
// environment's values count (others are ""), as Config.Get gives them.
func Lookup(lookupEnv func(string) (string, bool), name string) string {
	v, _ := New(lookupEnv).Get(name)
	return v
}

// Config is PCP's configuration as one process reads it: pcp.conf is
// read once, at the first look-up, as libpcp reads it.
type Config struct {
	lookupEnv func(string) (string, bool)
	loaded    bool
	file      map[string]string // pcp.conf's values, the first of each name
	err       *FatalError       // pcp.conf could not be read
	builtin   bool              // no pcp.conf read: Debian's values
}

// New is the configuration of a process whose environment lookupEnv
// reads.
func New(lookupEnv func(string) (string, bool)) *Config {
	return &Config{lookupEnv: lookupEnv}
}

// FatalError is libpcp's fatal error for a pcp.conf it cannot open.
type FatalError struct {
	Path string
	Err  error
}

func (e *FatalError) Error() string {
	return fmt.Sprintf("FATAL PCP ERROR: could not open config file \"%s\" : %s\n"+
		"You may need to set PCP_CONF or PCP_DIR in your environment.\n", e.Path, pmapi.Code(e.Err).Error())
}

// Get is pmGetConfig(3): the environment's value, else pcp.conf's, else
// "". The error is a *FatalError when a pcp.conf the environment names
// cannot be read, where libpcp exits; the value is then the
// environment's or "", as libpcp gives it to a command that read its
// configuration first without exiting (pmGetOptionalConfig(3)), as
// pmie does.
func (c *Config) Get(name string) (string, error) {
	v, ok := c.Optional(name)
	if !ok && c.builtin {
		v = defaults[name]
	}
	if c.err != nil {
		return v, c.err
	}
	return v, nil
}

// Optional is pmGetOptionalConfig(3): the value, and whether the
// environment or pcp.conf has one. It is never fatal.
func (c *Config) Optional(name string) (string, bool) {
	c.load()
	if v, ok := c.lookupEnv(name); ok {
		return v, true
	}
	v, ok := c.file[name]
	return v, ok
}

func (c *Config) load() {
	if c.loaded {
		return
	}
	c.loaded = true
	path, named := c.path()
	vars, err := read(path)
	if err != nil {
		if !named && errors.Is(err, fs.ErrNotExist) {
			c.builtin = true // PCP is not installed
			return
		}
		c.err = &FatalError{Path: path, Err: err}
		return
	}
	c.file = vars
}

// cache is the pcp.conf read last: a process looks its variables up
// one at a time, each look-up a new Config, and would otherwise read
// the file again for each (8 times in a pminfo -f).
var cache struct {
	sync.Mutex
	path  string
	stamp stamp
	vars  map[string]string // not to be changed
}

// stamp is what shows that a file is the one read before.
type stamp struct {
	ino, size int64
	mtime     time.Time
}

// read is pcp.conf's variables at path, from the cache while the file
// there has the same inode, size and modification time.
func read(path string) (map[string]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	st := stamp{size: fi.Size(), mtime: fi.ModTime()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.ino = int64(sys.Ino)
	}
	cache.Lock()
	defer cache.Unlock()
	if cache.vars != nil && cache.path == path && cache.stamp == st {
		return cache.vars, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cache.path, cache.stamp, cache.vars = path, st, parse(b)
	return cache.vars, nil
}

// path is where pcp.conf is, and whether the environment named it.
func (c *Config) path() (string, bool) {
	if p, ok := c.lookupEnv("PCP_CONF"); ok {
		return p, true
	}
	if d, ok := c.lookupEnv("PCP_DIR"); ok {
		return d + "/etc/pcp.conf", true
	}
	if _, err := os.Stat("/etc/pcp.conf"); err != nil {
		if _, err := os.Stat("/usr/local/etc/pcp.conf"); err == nil {
			return "/usr/local/etc/pcp.conf", false
		}
	}
	return "/etc/pcp.conf", false
}

const (
	maxLine  = 4096 - 1 // bytes libpcp reads of a line at a time
	maxValue = 4096 - 1 // bytes of a value it keeps
)

// parse reads pcp.conf's NAME=VALUE lines as libpcp does: lines
// starting '#' or without '=' are passed over, NAME is everything
// before the first '=' and VALUE the rest of the line, without one pair
// of matching quotes around it; a longer line is read in pieces of
// maxLine bytes, each a line; text after a NUL byte is not seen. The
// first line of a name gives its value.
func parse(b []byte) map[string]string {
	vars := map[string]string{}
	for len(b) > 0 {
		n := bytes.IndexByte(b, '\n') + 1
		if n == 0 {
			n = len(b)
		}
		n = min(n, maxLine)
		line := b[:n]
		b = b[n:]
		if i := bytes.IndexByte(line, 0); i >= 0 {
			line = line[:i]
		}
		name, val, ok := bytes.Cut(line, []byte("="))
		if !ok || bytes.HasPrefix(line, []byte("#")) {
			continue
		}
		if i := bytes.LastIndexByte(val, '\n'); i >= 0 {
			val = val[:i]
		}
		if l := len(val); l > 0 && (val[0] == '"' || val[0] == '\'') && val[l-1] == val[0] {
			val = val[1:max(l-1, 1)]
		}
		if len(val) > maxValue {
			val = val[:maxValue]
		}
		if _, seen := vars[string(name)]; !seen {
			vars[string(name)] = string(val)
		}
	}
	return vars
}
