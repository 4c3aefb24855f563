// Package yamlcfg reads a YAML configuration file with viper and checks
// its values, collecting every problem with its place: each is reported
// as "file:line:col: key: reason" (or, for a value taken from the
// environment, "$VARIABLE: key: reason"). Keys are case-insensitive, as
// viper makes them.
//
// It owns reading, positions and the checks every configuration needs
// (types, bounds, unknown keys); what the keys mean belongs to the
// packages that decode them (notify for alerting, daemon for the rest).
package yamlcfg

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"
)

// Decoder turns a configuration's values into checked settings,
// collecting every problem found.
type Decoder struct {
	File string
	pos  map[string]pos    // a key's value (or a list item), by path
	kpos map[string]pos    // a mapping key, by path
	env  map[string]string // path -> the environment variable that set it
	errs []string
}

type pos struct{ line, col int }

// Read reads YAML data from file, with the keys in envKeys (dotted paths,
// such as "http.listen_address") taken from the environment where set, as
// PREFIX_KEY with dots as underscores (PMIE_HTTP_LISTEN_ADDRESS). It
// returns the settings as viper gives them and a Decoder for them.
func Read(file string, data []byte, envPrefix string, envKeys []string) (m map[string]any, d *Decoder, err error) {
	defer func() {
		// the YAML reader is not ours: a panic in it is a bad file
		if r := recover(); r != nil {
			m, d, err = nil, nil, fmt.Errorf("%s: cannot read YAML: %v", file, r)
		}
	}()
	d = &Decoder{File: file, pos: map[string]pos{}, kpos: map[string]pos{}, env: map[string]string{}}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", file, err)
	}
	if len(root.Content) > 0 {
		d.walk(root.Content[0], "")
	}
	v := viper.New()
	v.SetConfigType("yaml")
	if err := v.ReadConfig(bytes.NewReader(data)); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", file, err)
	}
	for _, k := range envKeys {
		name := envPrefix + "_" + strings.ToUpper(strings.ReplaceAll(k, ".", "_"))
		if val, ok := os.LookupEnv(name); ok {
			v.Set(k, val)
			d.env[k] = name
		}
	}
	return v.AllSettings(), d, nil
}

// walk records the place of every key and list item under n.
func (d *Decoder) walk(n *yaml.Node, path string) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			p := Join(path, strings.ToLower(k.Value))
			d.kpos[p] = pos{k.Line, k.Column}
			d.pos[p] = pos{val.Line, val.Column}
			d.walk(val, p)
		}
	case yaml.SequenceNode:
		for i, item := range n.Content {
			p := fmt.Sprintf("%s[%d]", path, i)
			d.pos[p] = pos{item.Line, item.Column}
			d.walk(item, p)
		}
	case yaml.DocumentNode:
		for _, c := range n.Content {
			d.walk(c, path)
		}
	}
}

// Join makes the path of name under key.
func Join(key, name string) string {
	if key == "" {
		return name
	}
	return key + "." + name
}

// Errorf reports a problem with the value of key.
func (d *Decoder) Errorf(key, format string, args ...any) {
	d.report(key, d.pos, format, args...)
}

// keyErrorf reports a problem with key itself (not its value).
func (d *Decoder) keyErrorf(key, format string, args ...any) {
	d.report(key, d.kpos, format, args...)
}

func (d *Decoder) report(key string, at map[string]pos, format string, args ...any) {
	where := d.File
	if name, ok := d.env[key]; ok {
		where = "$" + name
	} else if p, ok := d.find(key, at); ok {
		where = fmt.Sprintf("%s:%d:%d", d.File, p.line, p.col)
	}
	d.errs = append(d.errs, where+": "+key+": "+fmt.Sprintf(format, args...))
}

// find gives the place of key in at or, for a key that is not there (a
// required key left out), of the nearest mapping or item holding it.
func (d *Decoder) find(key string, at map[string]pos) (pos, bool) {
	if p, ok := at[key]; ok {
		return p, true
	}
	for {
		i := strings.LastIndexAny(key, ".[")
		if i <= 0 {
			return pos{}, false
		}
		key = key[:i]
		if p, ok := d.pos[key]; ok {
			return p, true
		}
	}
}

// Place is where the value of key is, as "file:line:col" (the file
// alone if it is not known).
func (d *Decoder) Place(key string) string {
	if p, ok := d.find(key, d.pos); ok {
		return fmt.Sprintf("%s:%d:%d", d.File, p.line, p.col)
	}
	return d.File
}

// Failed reports whether any problem has been found.
func (d *Decoder) Failed() bool { return len(d.errs) > 0 }

// Count is the number of problems found so far.
func (d *Decoder) Count() int { return len(d.errs) }

// Add reports a problem found elsewhere than in the configuration file
// (in a file it names), as it is.
func (d *Decoder) Add(msg string) { d.errs = append(d.errs, msg) }

// Err gives every problem found, one a line, or nil.
func (d *Decoder) Err() error {
	if len(d.errs) == 0 {
		return nil
	}
	return errors.New(strings.Join(d.errs, "\n"))
}

// Unknown reports the keys of m (at key) that are not in known: most are
// misspellings.
func (d *Decoder) Unknown(m map[string]any, key string, known []string) {
	for _, k := range SortedKeys(m) {
		found := false
		for _, n := range known {
			found = found || k == n
		}
		if !found {
			d.keyErrorf(Join(key, k), "unknown key")
		}
	}
}

// Str is the string at m[name]; numbers and booleans are taken as their
// text.
func (d *Decoder) Str(m map[string]any, key, name string) string {
	x, ok := m[name]
	if !ok || x == nil {
		return ""
	}
	switch v := x.(type) {
	case string:
		return v
	case int, float64, bool:
		return fmt.Sprint(v)
	}
	d.Errorf(Join(key, name), "must be a string, not %s", KindOf(x))
	return ""
}

// MaxName is the longest name (of a receiver, route, window...) allowed.
const MaxName = 200

// Name is the string at m[name], which must be printable text of at most
// MaxName bytes: it appears in messages, labels and metrics.
func (d *Decoder) Name(m map[string]any, key, name string) string {
	s := d.Str(m, key, name)
	switch {
	case len(s) > MaxName:
		d.Errorf(Join(key, name), "must be at most %d bytes long", MaxName)
	case !Printable(s):
		d.Errorf(Join(key, name), "must be printable text, not %q", s)
	default:
		return s
	}
	return ""
}

// Printable reports whether s is valid UTF-8 without control characters.
func Printable(s string) bool {
	return utf8.ValidString(s) && strings.IndexFunc(s, unicode.IsControl) < 0
}

// Duration sets *out to the duration at m[name], if there is one, which
// must lie within [least, most].
func (d *Decoder) Duration(m map[string]any, key, name string, out *time.Duration, least, most time.Duration) {
	x, ok := m[name]
	if !ok || x == nil {
		return
	}
	p := Join(key, name)
	s, ok := x.(string)
	if !ok {
		d.Errorf(p, "must be a duration such as \"10s\" or \"5m\", not %s", KindOf(x))
		return
	}
	v, err := time.ParseDuration(s)
	switch {
	case err != nil || v <= 0:
		d.Errorf(p, "must be a positive duration such as \"10s\" or \"5m\", not %q", s)
	case v < least || v > most:
		d.Errorf(p, "must be from %v to %v, not %v", least, most, v)
	default:
		*out = v
	}
}

// Int sets *out to the whole number at m[name], if there is one, which
// must lie within [least, most].
func (d *Decoder) Int(m map[string]any, key, name string, out *int, least, most int) {
	x, ok := m[name]
	if !ok || x == nil {
		return
	}
	var v int
	switch n := x.(type) {
	case int:
		v = n
	case string: // from the environment
		var err error
		if v, err = strconv.Atoi(strings.TrimSpace(n)); err != nil {
			d.Errorf(Join(key, name), "must be a whole number from %d to %d, not %q", least, most, n)
			return
		}
	case float64:
		if n != math.Trunc(n) || math.Abs(n) > 1e15 {
			d.Errorf(Join(key, name), "must be a whole number from %d to %d, not %v", least, most, x)
			return
		}
		v = int(n)
	default:
		d.Errorf(Join(key, name), "must be a whole number from %d to %d, not %s", least, most, KindOf(x))
		return
	}
	if v < least || v > most {
		d.Errorf(Join(key, name), "must be a whole number from %d to %d, not %d", least, most, v)
		return
	}
	*out = v
}

// Bool sets *out to the boolean at m[name], if there is one.
func (d *Decoder) Bool(m map[string]any, key, name string, out *bool) {
	x, ok := m[name]
	if !ok || x == nil {
		return
	}
	switch v := x.(type) {
	case bool:
		*out = v
	case string: // from the environment
		b, err := strconv.ParseBool(v)
		if err != nil {
			d.Errorf(Join(key, name), "must be true or false, not %q", v)
			return
		}
		*out = b
	default:
		d.Errorf(Join(key, name), "must be true or false, not %s", KindOf(x))
	}
}

// List is the list at m[name].
func (d *Decoder) List(m map[string]any, key, name string) []any {
	x, ok := m[name]
	if !ok || x == nil {
		return nil
	}
	l, ok := x.([]any)
	if !ok {
		d.Errorf(Join(key, name), "must be a list, not %s", KindOf(x))
	}
	return l
}

// StrList is the list of strings at m[name]; from the environment, a
// list is words separated by white space.
func (d *Decoder) StrList(m map[string]any, key, name string) []string {
	if s, ok := m[name].(string); ok && d.env[Join(key, name)] != "" {
		return strings.Fields(s)
	}
	var out []string
	for i, x := range d.List(m, key, name) {
		s, ok := x.(string)
		if !ok {
			d.Errorf(fmt.Sprintf("%s[%d]", Join(key, name), i), "must be a string, not %s", KindOf(x))
			continue
		}
		out = append(out, s)
	}
	return out
}

// StrMap is the mapping of names to strings at m[name].
func (d *Decoder) StrMap(m map[string]any, key, name string) map[string]string {
	out := map[string]string{}
	x, ok := m[name]
	if !ok || x == nil {
		return out
	}
	mm, ok := x.(map[string]any)
	if !ok {
		d.Errorf(Join(key, name), "must be a mapping, not %s", KindOf(x))
		return out
	}
	for _, k := range SortedKeys(mm) {
		switch s := mm[k].(type) {
		case string:
			out[k] = s
		case int, float64, bool:
			out[k] = fmt.Sprint(s)
		default:
			d.Errorf(Join(key, name)+"."+k, "must be a string, not %s", KindOf(mm[k]))
		}
	}
	return out
}

// Mapping is the mapping at m[name], or nil.
func (d *Decoder) Mapping(m map[string]any, key, name string) map[string]any {
	x, ok := m[name]
	if !ok || x == nil {
		return nil
	}
	mm, ok := x.(map[string]any)
	if !ok {
		d.Errorf(Join(key, name), "must be a mapping, not %s", KindOf(x))
		return nil
	}
	return mm
}

// SortedKeys lists the keys of m in order.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// KindOf names a YAML value's kind for messages.
func KindOf(x any) string {
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
