package pmapi

import "testing"

// TestProfileSemantics follows pmAddProfile/pmDelProfile as libpcp
// implements them, quirks included.
func TestProfileSemantics(t *testing.T) {
	load, disks := NewInDom(60, 2), NewInDom(60, 1)
	var p Profile
	if !p.Contains(load, 1) || !all(&p, load) {
		t.Error("empty profile excludes")
	}
	p.Del(load, nil)
	if p.Contains(load, 1) || !p.Contains(disks, 1) || all(&p, load) || !all(&p, disks) {
		t.Error("Del(load) wrong")
	}
	if in, ok := p.Uniform(load); in || !ok {
		t.Errorf("Del(load): Uniform %v %v, want every instance out", in, ok)
	}
	p.Add(load, []int32{5})
	if !p.Contains(load, 5) || p.Contains(load, 1) || all(&p, load) {
		t.Error("Add(load, 5) wrong")
	}
	p.Add(load, nil)
	if !p.Contains(load, 1) || !all(&p, load) {
		t.Error("Add(load) wrong")
	}
	p.Del(load, []int32{15})
	if p.Contains(load, 15) || !p.Contains(load, 1) || all(&p, load) {
		t.Error("Del(load, 15) wrong")
	}
	p.Del(InDomNull, nil)
	if p.Contains(disks, 0) || p.Contains(load, 1) || all(&p, disks) {
		t.Error("Del(all) wrong")
	}
	p.Add(InDomNull, nil)
	if !p.Contains(disks, 0) {
		t.Error("Add(all) wrong")
	}
	// libpcp: a first pmAddProfile for a domain with a list starts from
	// "exclude all".
	var q Profile
	q.Add(disks, []int32{1})
	if q.Contains(disks, 0) || !q.Contains(disks, 1) {
		t.Error("Add(disks, 1) on a fresh profile wrong")
	}
}

// all reports whether p lets every instance of indom in.
func all(p *Profile, indom InDom) bool {
	in, ok := p.Uniform(indom)
	return ok && in
}
