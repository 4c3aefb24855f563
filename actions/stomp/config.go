// Package stomp is pmie's stomp action: a STOMP (Streaming Text Oriented
// Messaging Protocol) client that sends each action's message to a topic
// of a JMS server, as pmie 6.0.3 does, with the configuration file of
// pmie's -j option (ReadConfig) and the same bytes on the wire and
// messages (Client). Unlike pmie's, every wait is bounded: a broker that
// is down, silent or gone holds the evaluation for at most the configured
// timeout at each step of connecting or sending (see Client).
package stomp

import (
	"bufio"
	"io"
	"os"
	"strings"

	"github.com/gopcp/pmie/pmapi"
)

// Config is a stomp configuration file, read.
type Config struct {
	File    string // the file's name, as messages give it
	Host    string
	Port    int // as atoi(3) reads it; -1 when not given
	User    string
	Pass    string
	Timeout int    // seconds to wait for the server's acknowledgements
	Topic   string // the JMS topic, PMIE unless the file names one
}

// DefaultFile is the file pmie reads without -j, under $PCP_VAR_DIR.
func DefaultFile(varDir string) string { return varDir + "/config/pmie/stomp" }

const (
	lineMax = 4096 // pmie reads the file with fgets into a buffer this big
	pathMax = 4096 // and formats its name into one this big
	// maxRead bounds what is read of the file (pmie reads -j /dev/zero
	// forever).
	maxRead = 16 << 20
)

// keys are the settings a line may start with, each name with its "=".
var keys = []string{"port=", "host=", "hostname=", "user=", "username=", "password=", "passcode=", "timeout=", "topic="}

// ReadConfig reads the configuration file name as pmie reads its stomp
// file. errs are the messages pmie logs as errors before it exits with
// status 1; when there are any, the Config is not to be used.
func ReadConfig(name string) (cfg *Config, errs []string) {
	if len(name) > pathMax-1 {
		name = name[:pathMax-1]
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, []string{"Cannot open STOMP configuration file " + name + ": " + pmapi.Strerror(err)}
	}
	defer f.Close()
	return parseConfig(name, f)
}

// parseConfig reads the text of the stomp file name from in, as
// ReadConfig does once the file is open.
func parseConfig(name string, in io.Reader) (cfg *Config, errs []string) {
	cfg = &Config{File: name, Port: -1, Timeout: 2, Topic: "PMIE"}
	set := map[string]bool{}
	r := bufio.NewReader(io.LimitReader(in, maxRead))
	for {
		chunk, ok := nextChunk(r)
		if !ok {
			break
		}
		// what follows a NUL is not seen by the C string functions
		chunk, _, _ = strings.Cut(chunk, "\x00")
		for _, k := range keys {
			if !strings.HasPrefix(chunk, k) {
				continue
			}
			v := chunk[len(k):]
			if i := strings.IndexAny(v, " \t\n\v\f\r"); i >= 0 {
				v = v[:i]
			}
			cfg.set(k, v)
			set[k] = true
			break
		}
	}
	host := set["host="] || set["hostname="]
	user := set["user="] || set["username="]
	pass := set["password="] || set["passcode="]
	for _, m := range []struct {
		missing bool
		what    string
	}{{!host, "host"}, {cfg.Port == -1, "port"}, {!user, "username"}, {!pass, "passcode"}} {
		if m.missing {
			errs = append(errs, "No "+m.what+" in STOMP config file "+name)
		}
	}
	if errs != nil {
		return nil, errs
	}
	return cfg, nil
}

// nextChunk is what fgets(3) reads into pmie's buffer: a line with its
// newline, or as much of one as fits (lineMax-1 bytes), the rest coming
// as the next chunk. ok is false at the end of the file, or when it
// cannot be read (a directory).
func nextChunk(r *bufio.Reader) (string, bool) {
	var b []byte
	for len(b) < lineMax-1 {
		c, err := r.ReadByte()
		if err != nil {
			break
		}
		b = append(b, c)
		if c == '\n' {
			break
		}
	}
	return string(b), len(b) > 0
}

func (cfg *Config) set(key, v string) {
	switch key {
	case "port=":
		cfg.Port = pmapi.Atoi(v)
	case "timeout=":
		cfg.Timeout = pmapi.Atoi(v)
	case "host=", "hostname=":
		cfg.Host = v
	case "user=", "username=":
		cfg.User = v
	case "password=", "passcode=":
		cfg.Pass = v
	case "topic=":
		cfg.Topic = v
	}
}
