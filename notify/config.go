package notify

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
	"github.com/spf13/viper"
)

// Config is an alerting configuration, checked.
type Config struct {
	File            string            // where it was read from, for messages
	Labels          map[string]string // added to every alert
	Receivers       []ReceiverConfig
	Routes          []Route
	Default         string        // receiver for alerts no route matches; "" drops them
	ShutdownTimeout time.Duration // how long Close may flush queues
}

// ReceiverConfig is one receiver's settings; which apply depends on Type.
type ReceiverConfig struct {
	Name    string
	Type    string // exec, webhook or alertmanager
	Queue   int    // alerts held while sending; the oldest is dropped beyond
	Timeout time.Duration

	Command []string // exec: the program and its arguments

	URL     string            // webhook: where to POST; alertmanager: its base URL
	Headers map[string]string // webhook and alertmanager
	Retries int               // further attempts after a failed POST
	Backoff time.Duration     // wait before the first retry, doubled each time

	ResolveTimeout time.Duration // alertmanager: endsAt = firing time + this
	ResendInterval time.Duration // alertmanager: least time between sends of one alert
	GeneratorURL   string        // alertmanager: generatorURL, if set
}

// Route sends the alerts its condition matches to its receivers.
type Route struct {
	Name      string
	Condition string // an expr-lang expression; "" matches every alert
	Receivers []string
	Continue  bool // go on to later routes after a match

	program *vm.Program
}

// Defaults.
const (
	DefaultQueue           = 256
	DefaultTimeout         = 10 * time.Second
	DefaultRetries         = 3
	DefaultBackoff         = time.Second
	DefaultResolveTimeout  = 5 * time.Minute
	DefaultResendInterval  = time.Minute
	DefaultShutdownTimeout = 5 * time.Second
)

// Load reads and checks the alerting configuration in file.
func Load(file string) (*Config, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("cannot read alerting configuration: %w", err)
	}
	return Parse(file, data)
}

// Parse reads and checks an alerting configuration in YAML. All problems
// found are reported together, one a line, each as "file: key: reason".
func Parse(file string, data []byte) (cfg *Config, err error) {
	defer func() {
		// the YAML reader is not ours: a panic in it is a bad file
		if r := recover(); r != nil {
			cfg, err = nil, fmt.Errorf("%s: cannot read YAML: %v", file, r)
		}
	}()
	v := viper.New()
	v.SetConfigType("yaml")
	if err := v.ReadConfig(bytes.NewReader(data)); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	d := &decoder{file: file}
	cfg = d.config(v.AllSettings())
	if len(d.errs) > 0 {
		return nil, errors.New(strings.Join(d.errs, "\n"))
	}
	return cfg, nil
}

// decoder turns viper's maps into a Config, collecting every problem.
type decoder struct {
	file string
	errs []string
}

func (d *decoder) errorf(key, format string, args ...any) {
	d.errs = append(d.errs, d.file+": "+key+": "+fmt.Sprintf(format, args...))
}

var topKeys = []string{"labels", "receivers", "routes", "default_receiver", "shutdown_timeout"}

func (d *decoder) config(m map[string]any) *Config {
	d.unknown(m, "", topKeys)
	cfg := &Config{File: d.file, ShutdownTimeout: DefaultShutdownTimeout}
	cfg.Labels = d.labels(m, "labels")
	d.duration(m, "", "shutdown_timeout", &cfg.ShutdownTimeout)
	cfg.Default = d.str(m, "", "default_receiver")
	names := map[string]bool{}
	for i, r := range d.list(m, "", "receivers") {
		key := fmt.Sprintf("receivers[%d]", i)
		rc, ok := d.receiver(r, key)
		if !ok {
			continue
		}
		if names[rc.Name] {
			d.errorf(key+".name", "receiver %q is defined twice", rc.Name)
			continue
		}
		names[rc.Name] = true
		cfg.Receivers = append(cfg.Receivers, rc)
	}
	if len(cfg.Receivers) == 0 && len(d.errs) == 0 {
		d.errorf("receivers", "no receivers are defined")
	}
	if cfg.Default != "" && !names[cfg.Default] && len(d.errs) == 0 {
		d.errorf("default_receiver", "no receiver is named %q", cfg.Default)
	}
	for i, r := range d.list(m, "", "routes") {
		if rt, ok := d.route(r, fmt.Sprintf("routes[%d]", i), names); ok {
			cfg.Routes = append(cfg.Routes, rt)
		}
	}
	return cfg
}

var labelName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

func (d *decoder) labels(m map[string]any, key string) map[string]string {
	out := d.strMap(m, "", key)
	for _, k := range sortedKeys(out) {
		if !labelName.MatchString(k) {
			d.errorf(key+"."+k, "not a valid label name (letters, digits and _, not first a digit)")
		}
	}
	return out
}

var receiverKeys = map[string][]string{
	"exec":         {"name", "type", "queue", "timeout", "command"},
	"webhook":      {"name", "type", "queue", "timeout", "url", "headers", "retries", "backoff"},
	"alertmanager": {"name", "type", "queue", "timeout", "url", "headers", "retries", "backoff", "resolve_timeout", "resend_interval", "generator_url"},
}

func (d *decoder) receiver(x any, key string) (ReceiverConfig, bool) {
	m, ok := x.(map[string]any)
	if !ok {
		d.errorf(key, "must be a mapping, not %s", kindOf(x))
		return ReceiverConfig{}, false
	}
	n := len(d.errs)
	r := ReceiverConfig{Queue: DefaultQueue, Timeout: DefaultTimeout, Retries: DefaultRetries,
		Backoff: DefaultBackoff, ResolveTimeout: DefaultResolveTimeout, ResendInterval: DefaultResendInterval}
	r.Name = d.str(m, key, "name")
	if r.Name == "" {
		d.errorf(key+".name", "required")
	}
	r.Type = d.str(m, key, "type")
	keys, known := receiverKeys[r.Type]
	if !known {
		d.errorf(key+".type", "must be exec, webhook or alertmanager, not %q", r.Type)
		return r, false
	}
	d.unknown(m, key, keys)
	d.integer(m, key, "queue", &r.Queue, 1)
	d.duration(m, key, "timeout", &r.Timeout)
	switch r.Type {
	case "exec":
		r.Command = d.strList(m, key, "command")
		if len(r.Command) == 0 || r.Command[0] == "" {
			d.errorf(key+".command", "required: the program and its arguments, as a list")
		}
	default:
		r.URL = d.str(m, key, "url")
		if err := checkURL(r.URL); err != nil {
			d.errorf(key+".url", "%v", err)
		}
		r.Headers = d.strMap(m, key, "headers")
		d.integer(m, key, "retries", &r.Retries, 0)
		d.duration(m, key, "backoff", &r.Backoff)
		d.duration(m, key, "resolve_timeout", &r.ResolveTimeout)
		d.duration(m, key, "resend_interval", &r.ResendInterval)
		r.GeneratorURL = d.str(m, key, "generator_url")
		if r.Type == "alertmanager" && r.ResendInterval >= r.ResolveTimeout {
			d.errorf(key+".resend_interval", "must be less than resolve_timeout (%v), or alerts resolve while firing", r.ResolveTimeout)
		}
	}
	return r, len(d.errs) == n
}

func (d *decoder) route(x any, key string, receivers map[string]bool) (Route, bool) {
	m, ok := x.(map[string]any)
	if !ok {
		d.errorf(key, "must be a mapping, not %s", kindOf(x))
		return Route{}, false
	}
	n := len(d.errs)
	d.unknown(m, key, []string{"name", "condition", "receivers", "continue"})
	rt := Route{Name: d.str(m, key, "name"), Condition: d.str(m, key, "condition")}
	if rt.Name != "" {
		key += " (" + rt.Name + ")"
	}
	rt.Receivers = d.strList(m, key, "receivers")
	if len(rt.Receivers) == 0 {
		d.errorf(key+".receivers", "required: a list of receiver names")
	}
	for _, name := range rt.Receivers {
		if !receivers[name] {
			d.errorf(key+".receivers", "no receiver is named %q", name)
		}
	}
	if c, ok := m["continue"]; ok {
		if rt.Continue, ok = c.(bool); !ok {
			d.errorf(key+".continue", "must be true or false, not %s", kindOf(c))
		}
	}
	if rt.Condition != "" {
		p, err := expr.Compile(rt.Condition, expr.Env(env{}), expr.AsBool())
		if err != nil {
			d.errorf(key+".condition", "%v", err)
		} else {
			rt.program = p
		}
	}
	return rt, len(d.errs) == n
}

// unknown reports keys of m not in known: most are misspellings.
func (d *decoder) unknown(m map[string]any, key string, known []string) {
	var bad []string
	for k := range m {
		found := false
		for _, n := range known {
			found = found || k == n
		}
		if !found {
			bad = append(bad, k)
		}
	}
	sort.Strings(bad)
	for _, k := range bad {
		d.errorf(join(key, k), "unknown key")
	}
}

func join(key, name string) string {
	if key == "" {
		return name
	}
	return key + "." + name
}

func (d *decoder) str(m map[string]any, key, name string) string {
	x, ok := m[name]
	if !ok || x == nil {
		return ""
	}
	switch s := x.(type) {
	case string:
		return s
	case int, float64, bool:
		return fmt.Sprint(s)
	}
	d.errorf(join(key, name), "must be a string, not %s", kindOf(x))
	return ""
}

func (d *decoder) duration(m map[string]any, key, name string, out *time.Duration) {
	x, ok := m[name]
	if !ok || x == nil {
		return
	}
	s, ok := x.(string)
	if !ok {
		d.errorf(join(key, name), "must be a duration such as \"10s\" or \"5m\", not %s", kindOf(x))
		return
	}
	v, err := time.ParseDuration(s)
	if err != nil || v <= 0 {
		d.errorf(join(key, name), "must be a positive duration such as \"10s\" or \"5m\", not %q", s)
		return
	}
	*out = v
}

func (d *decoder) integer(m map[string]any, key, name string, out *int, least int) {
	x, ok := m[name]
	if !ok || x == nil {
		return
	}
	v, ok := x.(int)
	if !ok || v < least {
		d.errorf(join(key, name), "must be a whole number at least %d, not %v", least, x)
		return
	}
	*out = v
}

func (d *decoder) list(m map[string]any, key, name string) []any {
	x, ok := m[name]
	if !ok || x == nil {
		return nil
	}
	l, ok := x.([]any)
	if !ok {
		d.errorf(join(key, name), "must be a list, not %s", kindOf(x))
	}
	return l
}

func (d *decoder) strList(m map[string]any, key, name string) []string {
	var out []string
	for i, x := range d.list(m, key, name) {
		s, ok := x.(string)
		if !ok {
			d.errorf(fmt.Sprintf("%s[%d]", join(key, name), i), "must be a string, not %s", kindOf(x))
			continue
		}
		out = append(out, s)
	}
	return out
}

func (d *decoder) strMap(m map[string]any, key, name string) map[string]string {
	out := map[string]string{}
	x, ok := m[name]
	if !ok || x == nil {
		return out
	}
	mm, ok := x.(map[string]any)
	if !ok {
		d.errorf(join(key, name), "must be a mapping, not %s", kindOf(x))
		return out
	}
	for _, k := range sortedKeys(mm) {
		switch s := mm[k].(type) {
		case string:
			out[k] = s
		case int, float64, bool:
			out[k] = fmt.Sprint(s)
		default:
			d.errorf(join(key, name)+"."+k, "must be a string, not %s", kindOf(mm[k]))
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// checkURL requires an absolute http or https URL.
func checkURL(s string) error {
	if s == "" {
		return errors.New("required")
	}
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("not a URL: %q", s)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("must be an http:// or https:// URL, not %q", s)
	}
	return nil
}

// kindOf names a YAML value's kind for messages.
func kindOf(x any) string {
	switch x.(type) {
	case nil:
		return "nothing"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int, float64:
		return "a number"
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	}
	return fmt.Sprintf("%T", x)
}
