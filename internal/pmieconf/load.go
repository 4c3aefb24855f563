package pmieconf

import (
	"errors"
	"os"
	"sort"
	"strings"
	"syscall"

	"github.com/gopcp/pmie/lang"
)

// Load reads the rules found on a rules path: a colon-separated list of
// files and directories, directories searched through, in directory
// order as pmieconf reads them, and BuiltinPath for the built-in
// templates. Files without the rules-file header are
// passed over. The rules are sorted by name.
func Load(path string) (*Set, error) {
	s := newSet(path)
	for _, p := range strings.Split(path, ":") {
		if p == "" {
			continue
		}
		if err := s.loadPath(p); err != nil {
			return nil, err
		}
	}
	rules := s.Rules[1:]
	sort.SliceStable(rules, func(i, j int) bool { return rules[i].Name() < rules[j].Name() })
	return s, nil
}

// Strerror is the C library's text for the error under err.
func Strerror(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		msg := errno.Error()
		if msg != "" {
			return strings.ToUpper(msg[:1]) + msg[1:]
		}
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func (s *Set) loadPath(p string) error {
	if p == BuiltinPath {
		return s.loadBuiltin()
	}
	fi, err := os.Stat(p)
	if err != nil {
		return cerrorf("cannot stat %s: %s", p, Strerror(err))
	}
	if !fi.IsDir() {
		src, err := os.ReadFile(p)
		if err != nil {
			return cerrorf("cannot open %s: %s", p, Strerror(err))
		}
		return s.AddFile(p, src)
	}
	d, err := os.Open(p)
	if err != nil {
		return cerrorf("cannot opendir %s: %s", p, Strerror(err))
	}
	names, err := d.Readdirnames(-1) // directory order, as readdir(3) gives
	d.Close()
	if err != nil {
		return cerrorf("cannot opendir %s: %s", p, Strerror(err))
	}
	for _, n := range names {
		if err := s.loadPath(p + "/" + n); err != nil {
			return err
		}
	}
	return nil
}

// AddFile parses one rules file and adds its rules and global variables
// to the set (unsorted). A file that is not a rules file adds nothing.
func (s *Set) AddFile(name string, src []byte) error {
	f, l, perr := parseFile(name, src, s.tok)
	s.tok = l.tok
	if f == nil {
		if l.notRules != "" {
			s.lastMsg = l.notRules
		}
		return perr
	}
	b := &builder{set: s, file: f}
	for _, d := range f.Decls {
		if err := b.decl(d); err != nil {
			return err
		}
	}
	return perr
}

// builder turns a file's declarations into rules and variables, checking
// them as pmieconf does.
type builder struct {
	set  *Set
	file *File
	rule *Rule // the rule this file declared last
}

func (b *builder) errorAt(p lang.Pos, format string, args ...any) error {
	return &lang.Diagnostic{Severity: lang.Error, Src: b.file.src, Span: lang.Span{Start: p, End: p}, Msg: sprintf(format, args...)}
}

func (b *builder) decl(d *Decl) error {
	global := strings.HasPrefix(d.Name, globalPrefix)
	isRule := d.Type == TypeRule
	switch {
	case isRule && strings.HasPrefix(d.Name, globalName):
		return b.errorAt(d.NamePos, "rule name may not be %q - this is reserved", globalName)
	case b.rule == nil && global && isRule:
		return b.errorAt(d.NamePos, "rules not allowed in global group: %q", d.Name)
	case b.rule == nil && !global && !isRule:
		return b.errorAt(d.TypePos, "no rule defined, cannot make sense of %s %q without one", d.Type, d.Name)
	}
	if isRule {
		return b.ruleDecl(d)
	}
	// As in pmieconf, the default of enabled is off unless the file says:
	// undo turns off a rule or action declared without it.
	v := &Var{Name: d.Name, Type: d.Type, Enabled: true, Display: true, Modify: true}
	if global {
		v.Name, v.Global = strings.TrimPrefix(d.Name, globalPrefix), true
	}
	for _, a := range d.Attrs {
		if err := b.setVarAttr(v, d.Name, a); err != nil {
			return err
		}
	}
	if d.Partial {
		return nil
	}
	owner := b.rule
	if global {
		owner = b.set.Globals()
	}
	owner.Vars = append(owner.Vars, v)
	return nil
}

func (b *builder) ruleDecl(d *Decl) error {
	r := &Rule{Self: Var{Name: d.Name, Type: TypeRule, Enabled: true, Display: true}, Version: 1}
	for _, a := range d.Attrs {
		var err error
		switch lookupAttr(a.Key) {
		case attrPredicate:
			r.Predicate, r.HasPredicate = a.Value, true
		case attrEnumerate:
			r.Enumerate, r.HasEnumerate = a.Value, true
		case attrVersion:
			n, used := strtoul(a.Value)
			if used != len(a.Value) {
				err = b.errorAt(a.ValuePos, "version should be a positive integer number, not %q", a.Value)
			}
			r.Version = uint32(n)
		default:
			err = b.setVarAttr(&r.Self, d.Name, a)
		}
		if err != nil {
			return err
		}
	}
	if d.Partial {
		return nil
	}
	if b.set.Find(d.Name) != nil {
		return b.errorAt(d.NamePos, "rule name %q has already been used", d.Name)
	}
	b.set.lastMsg = errmsgf("rule named \"%s\" does not exist", d.Name)
	b.set.Rules = append(b.set.Rules, r)
	b.rule = r
	return nil
}

// setVarAttr applies one attribute of a variable's (or rule's) declaration.
func (b *builder) setVarAttr(v *Var, name string, a Attr) error {
	switch lookupAttr(a.Key) {
	case attrHelp:
		if !hasGraph(a.Value) {
			return b.errorAt(a.ValuePos, "help for %s is empty", name)
		}
		v.Help, v.HasHelp = a.Value, true
	case attrModify, attrEnabled, attrDisplay:
		on, ok := yesNo(a.Value)
		if !ok {
			return b.errorAt(a.ValuePos, "%s should be yes or no, not %q", a.Key, a.Value)
		}
		switch lookupAttr(a.Key) {
		case attrModify:
			v.Modify = on
		case attrEnabled:
			v.Enabled, v.DefaultEnabled = on, on
		default:
			v.Display = on
		}
	case attrDefault:
		val := a.Value
		if !v.Type.IsAction() {
			var should string
			if val, should = validate(v.Type, val); should != "" {
				return b.errorAt(a.ValuePos, "%s's value %q is invalid: it should %s", name, a.Value, should)
			}
		}
		v.Value, v.Default, v.HasValue = val, val, true
	}
	return nil
}

func hasGraph(s string) bool {
	for i := 0; i < len(s); i++ {
		if isGraph(int(s[i])) {
			return true
		}
	}
	return false
}
