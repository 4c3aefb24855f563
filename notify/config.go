package notify

import (
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"

	"github.com/gopcp/pmie/internal/yamlcfg"
)

// Config is an alerting configuration, checked: everything in it is
// within the bounds below, so that starting and running it cannot fail
// for a reason the check could have seen.
type Config struct {
	File            string            // where it was read from, for messages
	Labels          map[string]string // added to every alert
	Receivers       []ReceiverConfig
	Routes          []Route
	Default         string        // receiver for alerts no route matches; "" drops them
	ShutdownTimeout time.Duration // how long Close may flush queues
	Location        *time.Location
	Windows         []TimeWindow
	Heartbeats      []Heartbeat
}

// ReceiverConfig is one receiver's settings; which apply depends on Type.
type ReceiverConfig struct {
	Name    string
	Type    string // exec, webhook or alertmanager
	Queue   int    // alerts held while sending; the oldest is dropped beyond
	Timeout time.Duration

	Command []string // exec: the program and its arguments

	// SendResolved (exec and webhook) says whether the receiver is told,
	// as an alert of status resolved, when the bindings an action fired
	// for stop making the rule true (as Alertmanager's webhook_config's
	// send_resolved, and like it true unless set).
	SendResolved bool

	// URLs: webhook: where to POST (one); alertmanager: the base URL of
	// each Alertmanager, every one of which is sent every alert.
	URLs    []string
	Headers map[string]string // webhook and alertmanager
	Retries int               // further attempts after a failed POST
	Backoff time.Duration     // wait before the first retry, doubled each time

	ResolveTimeout time.Duration // alertmanager: endsAt = time sent + this
	ResendInterval time.Duration // alertmanager: least time between sends of one alert
	GeneratorURL   string        // alertmanager: generatorURL, if set
}

// Route sends the alerts its condition matches to its receivers.
type Route struct {
	Name      string
	Condition string // an expr-lang expression; "" matches every alert
	Receivers []string
	Continue  bool     // go on to later routes after a match
	MuteWhen  []string // time windows during which it sends nothing new

	program *vm.Program
}

// TimeWindow is a span of time that starts each time a cron schedule
// fires and lasts Duration, during which routes that name it are muted.
type TimeWindow struct {
	Name     string
	Cron     string
	Duration time.Duration

	sched schedule
}

// Heartbeat is an alert sent to Receivers each time a cron schedule
// fires, so that a pmie that has stopped is noticed by its absence.
type Heartbeat struct {
	Name      string
	Cron      string
	Receivers []string

	sched schedule
}

// Defaults and bounds.
const (
	DefaultQueue           = 256
	DefaultTimeout         = 10 * time.Second
	DefaultRetries         = 3
	DefaultBackoff         = time.Second
	DefaultResolveTimeout  = 5 * time.Minute
	DefaultResendInterval  = time.Minute
	DefaultShutdownTimeout = 5 * time.Second

	MaxQueue     = 100000
	MaxRetries   = 100
	MaxCondition = 4096 // bytes of a route's condition
)

// Keys are the top-level keys of an alerting configuration.
var Keys = []string{"labels", "receivers", "routes", "default_receiver", "shutdown_timeout",
	"timezone", "time_windows", "heartbeats"}

// Load reads and checks an alerting configuration file.
func Load(file string) (*Config, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("cannot read alerting configuration: %w", err)
	}
	return Parse(file, data)
}

// Parse reads and checks an alerting configuration in YAML (a file with
// only the keys of Keys). All problems found are reported together, one
// a line, each as "file:line:col: key: reason".
func Parse(file string, data []byte) (*Config, error) {
	m, d, err := yamlcfg.Read(file, data, "", nil)
	if err != nil {
		return nil, err
	}
	d.Unknown(m, "", Keys)
	cfg := Decode(d, m)
	if cfg == nil && !d.Failed() {
		d.Errorf("receivers", "no receivers are defined")
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// Decode checks and decodes the alerting keys of m (Keys; others are left
// to the caller). It returns nil if m has none of them: no alerting.
func Decode(d *yamlcfg.Decoder, m map[string]any) *Config {
	present := false
	for _, k := range Keys {
		_, ok := m[k]
		present = present || ok
	}
	if !present {
		return nil
	}
	before := d.Count()
	cfg := &Config{File: d.File, ShutdownTimeout: DefaultShutdownTimeout, Location: time.Local}
	cfg.Labels = labels(d, m, "labels")
	d.Duration(m, "", "shutdown_timeout", &cfg.ShutdownTimeout, time.Millisecond, 10*time.Minute)
	if tz := d.Str(m, "", "timezone"); tz != "" {
		loc, err := time.LoadLocation(tz)
		if err != nil {
			d.Errorf("timezone", "unknown time zone %q", tz)
		} else {
			cfg.Location = loc
		}
	}
	cfg.Default = d.Name(m, "", "default_receiver")
	names := map[string]bool{}
	for i, r := range d.List(m, "", "receivers") {
		key := fmt.Sprintf("receivers[%d]", i)
		rc, ok := decodeReceiver(d, r, key)
		if names[rc.Name] && rc.Name != "" {
			d.Errorf(key+".name", "receiver %q is defined twice", rc.Name)
			continue
		}
		names[rc.Name] = rc.Name != "" // routes to it are not errors of their own
		if ok {
			cfg.Receivers = append(cfg.Receivers, rc)
		}
	}
	if len(cfg.Receivers) == 0 && d.Count() == before {
		d.Errorf("receivers", "no receivers are defined")
	}
	if cfg.Default != "" && !names[cfg.Default] && d.Count() == before {
		d.Errorf("default_receiver", "no receiver is named %q", cfg.Default)
	}
	windows := map[string]bool{}
	for i, x := range d.List(m, "", "time_windows") {
		if w, ok := window(d, x, fmt.Sprintf("time_windows[%d]", i), cfg.Location, windows); ok {
			cfg.Windows = append(cfg.Windows, w)
		}
	}
	for i, r := range d.List(m, "", "routes") {
		if rt, ok := route(d, r, fmt.Sprintf("routes[%d]", i), names, windows); ok {
			cfg.Routes = append(cfg.Routes, rt)
		}
	}
	beats := map[string]bool{}
	for i, x := range d.List(m, "", "heartbeats") {
		if h, ok := heartbeat(d, x, fmt.Sprintf("heartbeats[%d]", i), cfg.Location, names, beats); ok {
			cfg.Heartbeats = append(cfg.Heartbeats, h)
		}
	}
	return cfg
}

var labelName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

// reserved are the labels pmie sets on every Alertmanager alert.
var reserved = map[string]bool{"alertname": true, "host": true, "instance": true, "pmie_instance": true}

func labels(d *yamlcfg.Decoder, m map[string]any, key string) map[string]string {
	out := d.StrMap(m, "", key)
	for _, k := range yamlcfg.SortedKeys(out) {
		switch {
		case !labelName.MatchString(k):
			d.Errorf(key+"."+k, "not a valid label name (letters, digits and _, not first a digit)")
		case strings.HasPrefix(k, "__") || reserved[k]:
			d.Errorf(key+"."+k, "a label pmie sets itself (alertname, host, instance, pmie_instance) or reserved (__...)")
		case !yamlcfg.Printable(out[k]):
			d.Errorf(key+"."+k, "must be printable text, not %q", out[k])
		}
	}
	return out
}

var receiverKeys = map[string][]string{
	"exec":         {"name", "type", "queue", "timeout", "command", "send_resolved"},
	"webhook":      {"name", "type", "queue", "timeout", "url", "headers", "retries", "backoff", "send_resolved"},
	"alertmanager": {"name", "type", "queue", "timeout", "url", "urls", "headers", "retries", "backoff", "resolve_timeout", "resend_interval", "generator_url", "send_resolved"},
}

func decodeReceiver(d *yamlcfg.Decoder, x any, key string) (ReceiverConfig, bool) {
	m, ok := x.(map[string]any)
	if !ok {
		d.Errorf(key, "must be a mapping, not %s", yamlcfg.KindOf(x))
		return ReceiverConfig{}, false
	}
	n := d.Count()
	r := ReceiverConfig{Queue: DefaultQueue, Timeout: DefaultTimeout, Retries: DefaultRetries,
		Backoff: DefaultBackoff, ResolveTimeout: DefaultResolveTimeout, ResendInterval: DefaultResendInterval,
		SendResolved: true}
	r.Name = d.Name(m, key, "name")
	if r.Name == "" && d.Count() == n {
		d.Errorf(key+".name", "required")
	}
	r.Type = d.Str(m, key, "type")
	keys, known := receiverKeys[r.Type]
	if !known {
		d.Errorf(key+".type", "must be exec, webhook or alertmanager, not %q", r.Type)
		return r, false
	}
	d.Unknown(m, key, keys)
	d.Int(m, key, "queue", &r.Queue, 1, MaxQueue)
	d.Duration(m, key, "timeout", &r.Timeout, time.Millisecond, time.Hour)
	if r.Type == "alertmanager" {
		r.SendResolved = false // Alertmanager is told of resolutions as part of an alert's life
		if _, ok := m["send_resolved"]; ok {
			d.Errorf(key+".send_resolved", "not for alertmanager receivers: Alertmanager is always told when an alert resolves (its own receivers' send_resolved decides what it passes on)")
		}
	} else {
		d.Bool(m, key, "send_resolved", &r.SendResolved)
	}
	if r.Type == "exec" {
		r.Command = d.StrList(m, key, "command")
		checkCommand(d, key+".command", r.Command)
		return r, d.Count() == n
	}
	r.URLs = urls(d, m, key, r.Type)
	r.Headers = headers(d, m, key)
	d.Int(m, key, "retries", &r.Retries, 0, MaxRetries)
	d.Duration(m, key, "backoff", &r.Backoff, time.Millisecond, time.Hour)
	if r.Type == "alertmanager" {
		d.Duration(m, key, "resolve_timeout", &r.ResolveTimeout, time.Second, 7*24*time.Hour)
		d.Duration(m, key, "resend_interval", &r.ResendInterval, time.Second, 7*24*time.Hour)
		if r.GeneratorURL = d.Str(m, key, "generator_url"); r.GeneratorURL != "" {
			if err := checkURL(r.GeneratorURL); err != nil {
				d.Errorf(key+".generator_url", "%v", err)
			}
		}
		if r.ResendInterval >= r.ResolveTimeout {
			d.Errorf(key+".resend_interval", "must be less than resolve_timeout (%v), or alerts resolve while firing", r.ResolveTimeout)
		}
	}
	return r, d.Count() == n
}

// checkCommand checks an exec receiver's command: the program must be
// there to run (an absolute path, or found on $PATH).
func checkCommand(d *yamlcfg.Decoder, key string, cmd []string) {
	if len(cmd) == 0 || cmd[0] == "" {
		d.Errorf(key, "required: the program and its arguments, as a list")
		return
	}
	for i, a := range cmd {
		if strings.IndexByte(a, 0) >= 0 {
			d.Errorf(fmt.Sprintf("%s[%d]", key, i), "must not hold a NUL byte")
			return
		}
	}
	if _, err := exec.LookPath(cmd[0]); err != nil {
		d.Errorf(key+"[0]", "cannot run %s: %v", cmd[0], unwrapExec(err))
	}
}

// unwrapExec leaves the program's name out of LookPath's error.
func unwrapExec(err error) error {
	if e, ok := err.(*exec.Error); ok {
		return e.Err
	}
	return err
}

// urls reads a webhook's url, or an alertmanager's url or urls.
func urls(d *yamlcfg.Decoder, m map[string]any, key, typ string) []string {
	var out []string
	if u := d.Str(m, key, "url"); u != "" {
		out = append(out, u)
	}
	list := d.StrList(m, key, "urls")
	switch {
	case len(out) > 0 && len(list) > 0:
		d.Errorf(key+".urls", "give url or urls, not both")
		return nil
	case len(list) > 0:
		out = list
	case len(out) == 0:
		if typ == "alertmanager" {
			d.Errorf(key+".url", "required (or urls: a list of Alertmanagers)")
		} else {
			d.Errorf(key+".url", "required")
		}
		return nil
	}
	field := "url"
	if len(list) > 0 {
		field = "urls"
	}
	seen := map[string]bool{}
	for i, u := range out {
		k := key + "." + field
		if field == "urls" {
			k = fmt.Sprintf("%s[%d]", k, i)
		}
		if err := checkURL(u); err != nil {
			d.Errorf(k, "%v", err)
		} else if seen[u] {
			d.Errorf(k, "%q is given twice", u)
		}
		seen[u] = true
	}
	return out
}

// checkURL requires an absolute http or https URL.
func checkURL(s string) error {
	if s == "" {
		return fmt.Errorf("required")
	}
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("not a URL: %q", s)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return fmt.Errorf("must be an http:// or https:// URL, not %q", s)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("port must be from 1 to 65535, not %q", p)
		}
	}
	return nil
}

// forbiddenHeaders are set by the HTTP client, or would change how the
// request is framed.
var forbiddenHeaders = map[string]bool{"host": true, "content-length": true, "content-type": true,
	"transfer-encoding": true, "connection": true, "keep-alive": true, "te": true, "trailer": true,
	"upgrade": true, "proxy-connection": true}

// headers reads extra request headers: names must be HTTP tokens and
// values must have no control characters (a CR or LF would end the
// header).
func headers(d *yamlcfg.Decoder, m map[string]any, key string) map[string]string {
	h := d.StrMap(m, key, "headers")
	for _, k := range yamlcfg.SortedKeys(h) {
		p := key + ".headers." + k
		switch {
		case k == "" || strings.IndexFunc(k, notToken) >= 0:
			d.Errorf(p, "not a valid header name")
		case forbiddenHeaders[k]:
			d.Errorf(p, "set by pmie's HTTP client; it cannot be given")
		case strings.IndexFunc(h[k], func(r rune) bool { return r != '\t' && (r < ' ' || r == 0x7f) }) >= 0:
			d.Errorf(p, "value must not hold control characters such as CR or LF (%q)", h[k])
		}
	}
	return h
}

// notToken reports a character that may not appear in an HTTP token
// (RFC 9110, 5.6.2).
func notToken(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return false
	}
	return !strings.ContainsRune("!#$%&'*+-.^_`|~", r)
}

func route(d *yamlcfg.Decoder, x any, key string, receivers, windows map[string]bool) (Route, bool) {
	m, ok := x.(map[string]any)
	if !ok {
		d.Errorf(key, "must be a mapping, not %s", yamlcfg.KindOf(x))
		return Route{}, false
	}
	n := d.Count()
	d.Unknown(m, key, []string{"name", "condition", "receivers", "continue", "mute_when"})
	rt := Route{Name: d.Name(m, key, "name"), Condition: d.Str(m, key, "condition")}
	rt.Receivers = d.StrList(m, key, "receivers")
	if len(rt.Receivers) == 0 {
		d.Errorf(key+".receivers", "required: a list of receiver names")
	}
	for _, name := range rt.Receivers {
		if !receivers[name] {
			d.Errorf(key+".receivers", "no receiver is named %q", name)
		}
	}
	d.Bool(m, key, "continue", &rt.Continue)
	rt.MuteWhen = d.StrList(m, key, "mute_when")
	for _, w := range rt.MuteWhen {
		if !windows[w] {
			d.Errorf(key+".mute_when", "no time window is named %q", w)
		}
	}
	switch {
	case len(rt.Condition) > MaxCondition:
		d.Errorf(key+".condition", "longer than %d bytes", MaxCondition)
	case rt.Condition != "":
		p, err := compileCondition(rt.Condition)
		if err != nil {
			d.Errorf(key+".condition", "%v", err)
		} else {
			rt.program = p
		}
	}
	return rt, d.Count() == n
}

// compileCondition compiles a route's condition, turning a panic in the
// compiler (which is not ours) into an error.
func compileCondition(src string) (p *vm.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("cannot compile: %v", r)
		}
	}()
	return expr.Compile(src, expr.Env(env{}), expr.AsBool())
}

func window(d *yamlcfg.Decoder, x any, key string, loc *time.Location, seen map[string]bool) (TimeWindow, bool) {
	m, ok := x.(map[string]any)
	if !ok {
		d.Errorf(key, "must be a mapping, not %s", yamlcfg.KindOf(x))
		return TimeWindow{}, false
	}
	n := d.Count()
	d.Unknown(m, key, []string{"name", "cron", "duration"})
	w := TimeWindow{Name: d.Name(m, key, "name"), Cron: d.Str(m, key, "cron")}
	uniqueName(d, key, w.Name, "time window", seen)
	w.sched = cronSchedule(d, key+".cron", w.Cron, loc)
	if _, ok := m["duration"]; !ok {
		d.Errorf(key+".duration", "required: how long the window lasts, such as \"2h\"")
	}
	d.Duration(m, key, "duration", &w.Duration, time.Second, 366*24*time.Hour)
	return w, d.Count() == n
}

func heartbeat(d *yamlcfg.Decoder, x any, key string, loc *time.Location, receivers, seen map[string]bool) (Heartbeat, bool) {
	m, ok := x.(map[string]any)
	if !ok {
		d.Errorf(key, "must be a mapping, not %s", yamlcfg.KindOf(x))
		return Heartbeat{}, false
	}
	n := d.Count()
	d.Unknown(m, key, []string{"name", "cron", "receivers"})
	h := Heartbeat{Name: d.Name(m, key, "name"), Cron: d.Str(m, key, "cron")}
	uniqueName(d, key, h.Name, "heartbeat", seen)
	h.sched = cronSchedule(d, key+".cron", h.Cron, loc)
	h.Receivers = d.StrList(m, key, "receivers")
	if len(h.Receivers) == 0 {
		d.Errorf(key+".receivers", "required: a list of receiver names")
	}
	for _, name := range h.Receivers {
		if !receivers[name] {
			d.Errorf(key+".receivers", "no receiver is named %q", name)
		}
	}
	return h, d.Count() == n
}

// uniqueName requires a name, not used before by another of its kind.
func uniqueName(d *yamlcfg.Decoder, key, name, kind string, seen map[string]bool) {
	switch {
	case name == "":
		d.Errorf(key+".name", "required")
	case seen[name]:
		d.Errorf(key+".name", "%s %q is defined twice", kind, name)
	}
	seen[name] = true
}
