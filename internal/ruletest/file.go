package ruletest

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// File is a test file, read and checked.
type File struct {
	Path         string // as given
	Src          *lang.Source
	RuleFiles    []string // the globs expanded, in order, relative paths resolved against the file's directory
	DerivedFiles []string
	Interval     time.Duration // pmie's -t: the delta of rules that set none
	Labels       map[string]string
	Tests        []*Test

	parsed map[string]*lang.File // rule files, parsed once for all the tests
}

// ruleFile parses a rule file, once.
func (f *File) ruleFile(path string) (*lang.File, error) {
	if p, ok := f.parsed[path]; ok {
		return p, nil
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if f.parsed == nil {
		f.parsed = map[string]*lang.File{}
	}
	p := lang.ParsePmie(path, string(text))
	f.parsed[path] = p
	return p, nil
}

// Test is one test of a file: its input and what to expect.
type Test struct {
	Name     string
	Span     lang.Span // of its name
	Start    time.Time // of the input, and of evaluation
	StartSet bool
	Host     string // the default host's name
	Timezone string
	Archives []string // instead of Input
	Input    []*Series
	Expect   []*Expect
}

// Series is the values of one metric instance of one host.
type Series struct {
	Span      lang.Span
	Metric    string
	Host      string // "" for the test's host
	Instance  string // "" for a singular metric
	Sem       pmapi.Sem
	Type      pmapi.Type
	Units     pmapi.Units
	Declared  bool // semantics, type or units were given here
	Values    []float64
	ValueSpan lang.Span
}

// Expect is what the rules should give at one evaluation time.
type Expect struct {
	Span      lang.Span
	At        time.Duration // after the test's start
	Tolerance float64       // absolute; 0: values must agree to 1 part in 1e9
	Values    []*ValueWant
	Fired     []*FiredWant
	FiredSet  bool // fired was given, perhaps as an empty list
	// FiredRules are the rules whose actions Fired lists (every action
	// they fire); nil: the actions of all rules.
	FiredRules map[string]bool
}

// ValueWant is the expected value of one rule or expression.
type ValueWant struct {
	Span    lang.Span
	Rule    string
	Members []*MemberWant // in order given
	Whole   bool          // a single value, not by host or instance
}

// MemberWant is the expected value of one member (host and instance).
type MemberWant struct {
	Span     lang.Span
	Host     string
	Instance string
	Key      string // as written in the shorthand {key: value}; "" otherwise
	Samples  []Want // newest first
}

// Want is one expected sample: a truth, a number, a string or unknown.
type Want struct {
	Span    lang.Span
	Unknown bool
	IsTruth bool
	Truth   eval.Truth
	IsStr   bool
	Str     string
	Num     float64
}

// FiredWant is one action expected to fire.
type FiredWant struct {
	Span      lang.Span
	Rule      string
	Action    string // print, shell, syslog, alarm or stomp
	Message   string
	HasMsg    bool
	Hosts     []string
	HasHosts  bool
	Instances []string
	HasInsts  bool
	Alert     map[string]any // keys of the alert's JSON form, with their values
}

// ReadFile reads and checks a test file. Problems are diagnostics with
// the file's line and column.
func ReadFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, diags := Parse(path, data)
	if err := diags.Err(); err != nil {
		return nil, err
	}
	return f, nil
}

// Parse reads a test file's text. Rule file globs are expanded relative
// to the directory of path. It returns every problem found, in order of
// position (at most maxDiags of them).
func Parse(path string, data []byte) (*File, lang.Diagnostics) {
	src := lang.NewSource(path, string(data))
	root, diags := parseYAML(src)
	if len(diags) > 0 {
		return nil, capDiags(diags)
	}
	r := &reader{src: src, dir: filepath.Dir(path)}
	f := r.file(root)
	return f, capDiags(r.diags)
}

// maxDiags is how many problems a file reports at most.
const maxDiags = 20

func capDiags(ds lang.Diagnostics) lang.Diagnostics {
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].Span.Start.Offset < ds[j].Span.Start.Offset })
	if len(ds) > maxDiags {
		ds = ds[:maxDiags]
	}
	return ds
}

// defaultStart is the start of a test that gives none.
var defaultStart = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// defaultHost is the name of the default host of a test that names none.
const defaultHost = "localhost"

// nan stands for no value.
var nan = math.NaN()
