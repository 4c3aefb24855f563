package archive

// Reopen and the metadata contexts share.
//
// pmie reads an archive through one context for each of its schedules
// (rules of different intervals step through the archive apart), and
// each context opened anew reads the archive's metadata again: for
// PCP's pmieconf rules, about a tenth of pmie's start-up. Reopen makes
// another context over the archive that shares the first one's
// metadata instead. An archive's metadata is complete once it is
// loaded (settle makes what was left to first use); what its contexts
// still make of it on demand (an instance domain's every instance, a
// metric's every name) is made under a lock. A context over several
// archives has metadata of its own, which is not shared: Reopen opens
// such a context anew.

// Reopen returns a new context over the archives c reads, with c's
// options, positioned at their start as Open leaves a context: what
// Open(name, options) returns, except that the metadata c has read is
// not read again. Each context keeps its own files and position, and
// either may be closed first.
func (c *Context) Reopen() (*Context, error) {
	if len(c.archives) != 1 || c.meta != c.archives[0].meta {
		return Open(c.name, c.opts)
	}
	return newContext(c.name, []*Archive{c.archives[0].twin(c.opts)}, c.opts)
}

// twin is an Archive over the same files as a, sharing its metadata and
// temporal index, with volumes of its own, not yet opened. The damage a
// found while loading is not reported again.
func (a *Archive) twin(o Options) *Archive {
	t := &Archive{base: a.base, label: a.label, metaPath: a.metaPath, meta: a.meta, index: a.index,
		volNums: a.volNums, vols: make(map[int]*volume, len(a.vols)),
		warn: o.Warn, anyFeatures: o.NoFeatureCheck}
	for n, v := range a.vols {
		t.vols[n] = &volume{a: t, num: n, path: v.path, size: -1}
	}
	return t
}

// settle does what the metadata leaves to first use and would change
// it then, so that contexts may share it once loaded: each instance
// domain's observations are put in time order.
func (m *meta) settle() {
	for _, h := range m.indoms {
		h.sort()
	}
}
