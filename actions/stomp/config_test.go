package stomp

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestReadConfig checks the -j file as pmie reads it: keys at the start of
// a line (fgets's pieces of at most 4095 bytes), values up to white space
// or a NUL, the last of a key winning, numbers as atoi(3) reads them, and
// pmie's messages for what is missing.
func TestReadConfig(t *testing.T) {
	long := strings.Repeat("y", 5000)
	for _, c := range []struct {
		name, text string
		want       Config
		errs       []string
	}{
		{"basic", "host=h\nport=61616\nusername=u\npassword=p\n",
			Config{Host: "h", Port: 61616, User: "u", Pass: "p", Timeout: 2, Topic: "PMIE"}, nil},
		{"aliases", "hostname=h\nport=1\nuser=u\npasscode=p\ntimeout=7\ntopic=T\n",
			Config{Host: "h", Port: 1, User: "u", Pass: "p", Timeout: 7, Topic: "T"}, nil},
		{"values end at white space or NUL", "host=a b\nport=2x\nusername=u\x00v\npassword=p\tq\ntopic=\n",
			Config{Host: "a", Port: 2, User: "u", Pass: "p", Timeout: 2, Topic: ""}, nil},
		{"leading space is an empty value", "host= h\nport= 5\nusername=u\npassword=p",
			Config{Host: "", Port: 0, User: "u", Pass: "p", Timeout: 2, Topic: "PMIE"}, nil},
		{"last wins", "host=a\nhostname=b\nport=1\nport=2\nuser=u\nusername=v\npassword=p\npasscode=q\n",
			Config{Host: "b", Port: 2, User: "v", Pass: "q", Timeout: 2, Topic: "PMIE"}, nil},
		{"atoi cuts to 32 bits", "host=h\nport=4294967297\nusername=u\npassword=p\ntimeout=-3\n",
			Config{Host: "h", Port: 1, User: "u", Pass: "p", Timeout: -3, Topic: "PMIE"}, nil},
		// a long line's rest is read as a line of its own
		{"long line", "host=h\nport=1\nusername=u\npassword=p\ntopic=" + long[:4089] + "topic=t\n",
			Config{Host: "h", Port: 1, User: "u", Pass: "p", Timeout: 2, Topic: "t"}, nil},
		{"keys only at the start", " host=h\nHOST=h\n#port=1\n",
			Config{}, []string{"No host in STOMP config file F", "No port in STOMP config file F",
				"No username in STOMP config file F", "No passcode in STOMP config file F"}},
		// strtol saturates, and LONG_MAX cut to an int is -1: no port
		{"port overflow", "host=h\nport=99999999999999999999\nusername=u\npassword=p\n",
			Config{}, []string{"No port in STOMP config file F"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			name := filepath.Join(t.TempDir(), "stomp")
			if err := os.WriteFile(name, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, errs := ReadConfig(name)
			for i := range errs {
				errs[i] = strings.ReplaceAll(errs[i], name, "F")
			}
			if !reflect.DeepEqual(errs, c.errs) {
				t.Errorf("messages %q, want %q", errs, c.errs)
			}
			if c.errs != nil {
				if cfg != nil {
					t.Errorf("a configuration with messages: %+v", cfg)
				}
				return
			}
			c.want.File = name
			if cfg == nil || *cfg != c.want {
				t.Errorf("got %+v, want %+v", cfg, c.want)
			}
		})
	}
}

// TestReadConfigFiles checks files that cannot be read as pmie has them:
// one missing is said with its errno, a directory (fopen succeeds, fgets
// reads nothing) lacks every key, and a name is cut to 4095 bytes.
func TestReadConfigFiles(t *testing.T) {
	dir := t.TempDir()
	if _, errs := ReadConfig(dir + "/none"); len(errs) != 1 ||
		errs[0] != "Cannot open STOMP configuration file "+dir+"/none: No such file or directory" {
		t.Errorf("missing file: %q", errs)
	}
	if _, errs := ReadConfig(dir); len(errs) != 4 || errs[0] != "No host in STOMP config file "+dir {
		t.Errorf("directory: %q", errs)
	}
	long := "/" + strings.Repeat("d", 5000)
	if _, errs := ReadConfig(long); len(errs) != 1 || !strings.Contains(errs[0], " "+long[:4095]+": ") {
		t.Errorf("long name: %.80q", errs)
	}
}

// FuzzParseConfig reads any text as a stomp file: no panic, and either a
// configuration whose values hold no white space or NUL, or pmie's
// messages for the keys missing, never both.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{"host=h\nport=61616\nusername=u\npassword=p\n",
		"hostname=h\nport=1\nuser=u\npasscode=p\ntimeout=7\ntopic=T\n",
		"host=a b\nport=2x\nusername=u\x00v\npassword=p\tq\ntopic=\n",
		"host= h\nport= 5\nusername=u\npassword=p", " host=h\nHOST=h\n#port=1\n",
		"host=h\nport=99999999999999999999\nusername=u\npassword=p\n",
		"host=h\nport=1\nusername=u\npassword=p\ntopic=" + strings.Repeat("y", 4089) + "topic=t\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		cfg, errs := parseConfig("F", strings.NewReader(text))
		if (cfg == nil) == (errs == nil) {
			t.Fatalf("%q: configuration %+v with messages %q", text, cfg, errs)
		}
		for _, e := range errs {
			if !strings.HasPrefix(e, "No ") || !strings.HasSuffix(e, " in STOMP config file F") {
				t.Errorf("%q: message %q", text, e)
			}
		}
		if cfg == nil {
			return
		}
		if cfg.Port == -1 {
			t.Errorf("%q: no port, yet a configuration", text)
		}
		for _, v := range []string{cfg.Host, cfg.User, cfg.Pass, cfg.Topic} {
			if strings.ContainsAny(v, " \t\n\v\f\r\x00") || len(v) >= lineMax {
				t.Errorf("%q: value %q", text, v)
			}
		}
	})
}
