package pmapi

import (
	"strings"
	"testing"
)

func labelSet(pairs ...string) *LabelSet {
	s := &LabelSet{Inst: InNull}
	for i := 0; i+1 < len(pairs); i += 2 {
		l := Label{Name: pairs[i], Value: pairs[i+1]}
		if strings.HasPrefix(l.Name, "?") {
			l.Name, l.Flags = l.Name[1:], LabelOptional
		}
		s.Labels = append(s.Labels, l)
	}
	return s
}

func TestMergeLabels(t *testing.T) {
	notOptional := func(l Label) bool { return l.Flags&LabelOptional == 0 }
	for _, c := range []struct {
		name string
		sets []*LabelSet
		keep func(Label) bool
		want string
	}{
		{"no sets", nil, nil, ""},
		{"all absent", []*LabelSet{nil, nil}, nil, ""},
		{"empty set", []*LabelSet{nil, labelSet()}, nil, "{}"},
		{"context only", []*LabelSet{labelSet("hostname", `"bozo"`)}, nil, `{"hostname":"bozo"}`},
		{"later wins", []*LabelSet{
			labelSet("agent", `"linux"`, "hostname", `"a"`),
			nil,
			labelSet("hostname", `"b"`, "units", `"x"`),
		}, nil, `{"agent":"linux","hostname":"b","units":"x"}`},
		{"sorted by name bytes", []*LabelSet{
			labelSet("b", "1", "a_b", "2"), labelSet("a", "[1,2]", "B", "{}"),
		}, nil, `{"B":{},"a":[1,2],"a_b":2,"b":1}`},
		{"no value is null", []*LabelSet{labelSet("x", "")}, nil, `{"x":null}`},
		{"optional dropped", []*LabelSet{
			labelSet("hostname", `"h"`, "role", `"db"`), labelSet("?role", `"web"`),
		}, notOptional, `{"hostname":"h"}`},
	} {
		got, err := MergeLabels(c.sets, c.keep)
		if err != nil || got != c.want {
			t.Errorf("%s: MergeLabels = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

func TestMergeLabelsTooBig(t *testing.T) {
	big := labelSet("x", `"`+strings.Repeat("y", MaxLabelJSONLen)+`"`)
	if _, err := MergeLabels([]*LabelSet{big}, nil); err == nil || err.Error() != "Argument list too long" {
		t.Errorf("oversized merge gave %v", err)
	}
}
