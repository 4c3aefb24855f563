package pmapi

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func writePMNS(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pmns")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadPMNS(t *testing.T) {
	path := writePMNS(t, `root {
    synth
    other	1:2:3
    dyn	99:*:*
}
synth {
    load	245:2:0
    disk
    alias	1 : 2 : 3
}
synth.disk {
    reads	245:0:0
}
`)
	ns, err := LoadPMNS(path, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	if err := Traverse(nsOnly{ns}, "", func(n string) error { names = append(names, n); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []string{"synth.load", "synth.disk.reads", "synth.alias", "other", "dyn"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	if id, err := ns.LookupName("synth.load"); err != nil || id != NewPMID(245, 2, 0) {
		t.Errorf("synth.load = %v, %v", id, err)
	}
	if id, _ := ns.LookupName("dyn"); id != NewPMID(511, 99, 0) {
		t.Errorf("dyn = %v, want the dynamic root 511.99.0", id)
	}
	for _, name := range []string{"dyn.a", "dyn.a.b.c"} {
		if id, err := ns.LookupName(name); err != nil || id != NewPMID(511, 99, 0) {
			t.Errorf("%s = %v, %v, want the dynamic root's PMID as libpcp gives", name, id, err)
		}
	}
	for _, name := range []string{"synth.load.x", "other.x", "nothere.x"} {
		if _, err := ns.LookupName(name); err != ErrName {
			t.Errorf("%s: %v, want ErrName", name, err)
		}
	}
	if all, _ := ns.NameAll(NewPMID(1, 2, 3)); !reflect.DeepEqual(all, []string{"other", "synth.alias"}) {
		t.Errorf("NameAll(1.2.3) = %q", all)
	}
	if _, err := ns.LookupName("synth"); err != ErrNonLeaf {
		t.Errorf("non-leaf lookup: %v", err)
	}
	ns.Trim(func(id PMID) bool { return id.Domain() == 245 })
	names = nil
	Traverse(nsOnly{ns}, "", func(n string) error { names = append(names, n); return nil })
	if !reflect.DeepEqual(names, []string{"synth.load", "synth.disk.reads"}) {
		t.Errorf("after Trim: %q", names)
	}
}

func TestLoadPMNSErrors(t *testing.T) {
	for _, c := range []struct {
		text, diag string
		dupok      bool
	}{
		{"root {\n  a 1:2:3\n  b 1:2:3\n}\n",
			"Error Parsing ASCII PMNS: Duplicate metric id (1.2.3) in name space for metrics \"b\" and \"a\"\n\n", false},
		{"root {\n  a 1:2\n}\n", "[P:2] Error Parsing ASCII PMNS: Illegal PMID\n    a 1:2\n      ^\n" +
			"[P:2] Error Parsing ASCII PMNS: Expected NAME, PMID or }\n      ^\n      ^\n", true},
		{"root {\n  a\n}\n", "Error Parsing ASCII PMNS: Cannot find definition for non-terminal node \"a\" in name space\n", true},
		{"other {\n}\n", "Error Parsing ASCII PMNS: No name space entry for \"root\"\n", true},
		{"root {\n}\nx {\n}\n", "Error Parsing ASCII PMNS: Disconnected subtree (\"x\") in name space\n", true},
		{"root {\n a 1:2:3\n a 1:2:4\n}\n", "[P:4] Error Parsing ASCII PMNS: Duplicate name \"a\" in subtree for \"root\"\n\n" +
			"    Duplicate name \"a\" in subtree for \"root\"\n    ^\n", true},
		{"root\n}\n", "[P:2] Error Parsing ASCII PMNS: { expected\n    }\n    ^\n", true},
	} {
		path := writePMNS(t, c.text)
		_, err := LoadPMNS(path, c.dupok, nil)
		pe, ok := err.(*PMNSError)
		if !ok {
			t.Errorf("%q: error %v", c.text, err)
			continue
		}
		want := replaceAll(c.diag, "[P:", "["+path+":")
		if pe.Diag != want || pe.Code != ErrPMNS {
			t.Errorf("%q: diag\n%q\nwant\n%q (code %v)", c.text, pe.Diag, want, pe.Code)
		}
	}
	_, err := LoadPMNS("/no/such/pmns", true, nil)
	if pe, ok := err.(*PMNSError); !ok || pe.Error() != "No such file or directory" ||
		pe.Diag != "Error Parsing ASCII PMNS: Cannot open \"/no/such/pmns\"\n" {
		t.Errorf("missing file: %#v", err)
	}
}

func replaceAll(s, old, new string) string {
	out := ""
	for {
		i := indexOf(s, old)
		if i < 0 {
			return out + s
		}
		out += s[:i] + new
		s = s[i+len(old):]
	}
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// nsOnly makes a Namespace usable by Traverse.
type nsOnly struct{ *Namespace }

func (nsOnly) Source() Source                               { return Source{} }
func (nsOnly) LookupDesc(PMID) (Desc, error)                { return Desc{}, ErrPMID }
func (nsOnly) InDom(InDom) ([]Instance, error)              { return nil, ErrInDom }
func (nsOnly) Text(uint32, TextKind) (string, error)        { return "", ErrText }
func (nsOnly) Labels(LabelFlag, uint32) ([]LabelSet, error) { return nil, nil }
func (nsOnly) Fetch([]PMID, *Result) error                  { return ErrNoContext }
func (nsOnly) Close() error                                 { return nil }

// FuzzPMNS checks that no namespace text makes the parser panic or hang,
// and that every metric it yields looks up to a PMID that names it back.
func FuzzPMNS(f *testing.F) {
	f.Add("root {\n    a\n    b 1:2:3\n}\na {\n    c 4:5:6\n    d 7:*:*\n}\n")
	f.Add("# 1 \"f\"\nroot {\n x 9:0:1\n}\n# 7 \"g\"\n")
	f.Add("root {\n  a 1:2\n}\n")
	f.Fuzz(func(t *testing.T, text string) {
		p := &nsParser{fname: "fuzz", dupok: true, linep: -1, data: []byte(text), cppOK: true, lineno: 1}
		ns, ok := p.parse()
		if !ok {
			return
		}
		Traverse(nsOnly{ns}, "", func(name string) error {
			id, err := ns.LookupName(name)
			if err == ErrNonLeaf {
				return nil // a block left empty: libpcp lists it too
			}
			if err != nil {
				t.Errorf("%q listed but lookup fails: %v", name, err)
				return nil
			}
			names, err := ns.NameAll(id)
			found := false
			for _, n := range names {
				found = found || n == name
			}
			if err != nil || !found {
				t.Errorf("NameAll(%v) = %q, %v; missing %q", id, names, err, name)
			}
			return nil
		})
	})
}
