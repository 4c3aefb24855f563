package archive

import (
	"github.com/gopcp/pmie/pmapi"
)

// fetchRecord is __pmLogFetch in ModeForw or ModeBack: the next record
// at or after (before) the current time that holds any of ids, which
// becomes the current time. <mark> records are passed over.
func (c *Context) fetchRecord(ids []pmapi.PMID, r *pmapi.Result) error {
	forward := c.mode == pmapi.ModeForw
	c.cur = c.saved
	for {
		rc, err := c.nextRecord(forward)
		if err != nil {
			c.saved = c.cur
			return err
		}
		c.setOrigin(rc.time)
		if rc.mark {
			continue
		}
		p := c.payload(&rc)
		// like libpcp, a list of nothing but derived metrics' PMIDs
		// (whose values come from constants) takes any record
		if c.fillFromRecord(ids, &rc, p, r) || allDerived(ids) {
			c.saved = c.cur
			return nil
		}
	}
}

// FetchArchive is pmFetchArchive: the whole of the next record at or
// after (before, in ModeBack) the current time, whichever metrics it
// holds, in the order it holds them, or a <mark> (a Result with no value
// sets); its time becomes the current time. Values are decoded as the
// metrics' descriptors say; the instance profile does not apply. It
// gives PM_ERR_MODE in ModeInterp.
func (c *Context) FetchArchive(r *pmapi.Result) error {
	if c.closed {
		return pmapi.ErrNoContext
	}
	r.Reset()
	if c.mode == pmapi.ModeInterp {
		return pmapi.ErrMode
	}
	c.cur = c.saved
	rc, err := c.nextRecord(c.mode == pmapi.ModeForw)
	c.saved = c.cur
	if err != nil {
		return err
	}
	c.setOrigin(rc.time)
	r.Time = rc.time
	if rc.mark {
		return nil
	}
	v := rc.r.vol
	c.archSets, c.archVals, err = decodeSets(v, &rc.r.head, c.payload(&rc), c.meta.descs, &c.strs, c.archSets[:0], c.archVals[:0])
	if err != nil {
		return err
	}
	growSets(r, len(c.archSets))
	for k, s := range c.archSets {
		r.Sets[k].PMID, r.Sets[k].Err = s.PMID, s.Err
		r.Sets[k].Values = append(r.Sets[k].Values, s.Values...)
	}
	return nil
}

// allDerived reports whether every PMID of ids is a derived metric's.
func allDerived(ids []pmapi.PMID) bool {
	for _, id := range ids {
		if !id.IsDerived() {
			return false
		}
	}
	return true
}

// nextRecord reads on from the current position to the first record at
// or after (before, reading backwards) the current time, first finding
// the position from the temporal index if reading is not serial.
func (c *Context) nextRecord(forward bool) (rec, error) {
	if !c.serial {
		if _, err := c.setTime(); err != nil {
			return rec{}, err
		}
		c.saved = c.cur
		// Back up (against the direction of reading) to just past the
		// records on the wrong side of the current time.
		for {
			rc, err := c.read(!forward)
			if err != nil {
				break
			}
			d := c.sinceOrigin(rc.time)
			if (forward && d < 0) || (!forward && d > 0) || d == 0 {
				break
			}
			c.saved = c.cur
		}
		c.serial = true
	}
	for {
		rc, err := c.read(forward)
		if err != nil {
			return rec{}, err
		}
		d := c.sinceOrigin(rc.time)
		if (d < 0 && forward) || (d > 0 && !forward) {
			continue
		}
		return rc, nil
	}
}

// fillFromRecord puts the values of ids from record rc, whose payload
// is p, into r, in the order of ids, reporting false if the record holds
// none of them.
func (c *Context) fillFromRecord(ids []pmapi.PMID, rc *rec, p []byte, r *pmapi.Result) bool {
	b := p[recHeaderLen(rc.r.vol.f.label.Version):]
	nsets := int(rc.r.head.nsets)
	sets := make([]rawSet, nsets)
	for k := range sets {
		sets[k], b = nextSet(b)
	}
	found := false
	r.Time = rc.time
	growSets(r, len(ids))
	for j, id := range ids {
		vs := &r.Sets[j]
		vs.PMID = id
		for k := range sets {
			s := &sets[k]
			if s.pmid != id {
				continue
			}
			found = true
			if s.numval < 0 {
				vs.Err = pmapi.Errno(s.numval)
				break
			}
			t, indom := pmapi.TypeUnknown, pmapi.InDomNull
			if d, ok := c.meta.descs[id]; ok {
				t, indom = d.Type, d.InDom
			}
			for i := 0; i < int(s.numval); i++ {
				if indom != pmapi.InDomNull && !c.prof.Contains(indom, s.inst(i)) {
					continue
				}
				a, ok := atom(t, s, i, p, &c.strs)
				if !ok {
					continue
				}
				vs.Values = append(vs.Values, pmapi.Value{Inst: s.inst(i), Atom: a})
			}
			break
		}
	}
	return found
}

// growSets makes r hold n empty value sets, reusing its storage.
func growSets(r *pmapi.Result, n int) {
	if cap(r.Sets) < n {
		old := r.Sets[:cap(r.Sets)]
		r.Sets = make([]pmapi.ValueSet, n)
		for i := range old {
			r.Sets[i].Values = old[i].Values[:0]
		}
	}
	r.Sets = r.Sets[:n]
	for i := range r.Sets {
		r.Sets[i] = pmapi.ValueSet{Values: r.Sets[i].Values[:0]}
	}
}
