package pmcd

import (
	"github.com/gopcp/pmie/internal/pdu"
	"github.com/gopcp/pmie/pmapi"
)

var _ pmapi.Context = (*Context)(nil)

// LookupName is pmLookupName for one name.
func (x *Context) LookupName(name string) (pmapi.PMID, error) {
	const op = "lookup name"
	p, err := x.call(op, pdu.EncodeNames([]string{name}, nil), pdu.PMNSIDs)
	if err != nil {
		return pmapi.PMIDNull, err
	}
	_, ids, err := pdu.DecodeIDs(p, pdu.PMNSIDs)
	if err == nil && len(ids) != 1 {
		err = &pdu.FormatError{Type: pdu.PMNSIDs, Msg: "PMID count is not 1", Code: pmapi.ErrIPC}
	}
	if err != nil {
		return pmapi.PMIDNull, x.decoded(op, err)
	}
	if ids[0] == pmapi.PMIDNull {
		return pmapi.PMIDNull, pmapi.ErrName
	}
	return ids[0], nil
}

// LookupNames is pmLookupName for many names in one request: their
// PMIDs, PMIDNull for each name pmcd does not know (ask LookupName for
// why).
func (x *Context) LookupNames(names []string) ([]pmapi.PMID, error) {
	const op = "lookup names"
	if len(names) == 0 {
		return nil, pmapi.ErrTooSmall
	}
	p, err := x.call(op, pdu.EncodeNames(names, nil), pdu.PMNSIDs)
	if err != nil {
		return nil, err
	}
	_, ids, err := pdu.DecodeIDs(p, pdu.PMNSIDs)
	if err == nil && len(ids) != len(names) {
		err = &pdu.FormatError{Type: pdu.PMNSIDs, Msg: "PMID count differs from the request", Code: pmapi.ErrIPC}
	}
	if err != nil {
		return nil, x.decoded(op, err)
	}
	return ids, nil
}

// NameAll is pmNameAll: every name of id.
func (x *Context) NameAll(id pmapi.PMID) ([]string, error) {
	return x.names("name all", pdu.EncodeIDs(pdu.PMNSIDs, 0, []pmapi.PMID{id}), pmapi.ErrPMID)
}

// Children is pmGetChildrenStatus.
func (x *Context) Children(name string) ([]pmapi.Child, error) {
	const op = "get children"
	p, err := x.call(op, pdu.EncodeNameReq(pdu.PMNSChild, name, 1), pdu.PMNSNames)
	if err != nil {
		return nil, err
	}
	names, status, err := pdu.DecodeNames(p)
	if err == nil && status == nil && len(names) > 0 {
		err = &pdu.FormatError{Type: pdu.PMNSNames, Msg: "children without status", Code: pmapi.ErrIPC}
	}
	if err != nil {
		return nil, x.decoded(op, err)
	}
	kids := make([]pmapi.Child, len(names))
	for i, n := range names {
		kids[i] = pmapi.Child{Name: n, Leaf: status[i] == pdu.Leaf}
	}
	return kids, nil
}

// TraversePMNS is pmTraversePMNS done by pmcd in one request: the full
// names of all leaves at or below name ("" is the root), in namespace
// order. It gives the same names as pmapi.Traverse with far fewer round
// trips.
func (x *Context) TraversePMNS(name string) ([]string, error) {
	return x.names("traverse", pdu.EncodeNameReq(pdu.PMNSTraverse, name, 0), pmapi.ErrName)
}

// names runs a request answered by a list of names; none is the error
// for an empty list.
func (x *Context) names(op string, req []byte, none pmapi.Errno) ([]string, error) {
	p, err := x.call(op, req, pdu.PMNSNames)
	if err != nil {
		return nil, err
	}
	names, _, err := pdu.DecodeNames(p)
	if err != nil {
		return nil, x.decoded(op, err)
	}
	if len(names) == 0 {
		return nil, none
	}
	return names, nil
}

// LookupDesc is pmLookupDesc.
func (x *Context) LookupDesc(id pmapi.PMID) (pmapi.Desc, error) {
	const op = "lookup desc"
	p, err := x.call(op, pdu.EncodeDescReq(id), pdu.Desc)
	if err != nil {
		return pmapi.Desc{}, err
	}
	d, err := pdu.DecodeDesc(p)
	if err != nil {
		return pmapi.Desc{}, x.decoded(op, err)
	}
	x.types[d.PMID] = d.Type
	return d, nil
}

// LookupDescs is pmLookupDescs: the descriptors of ids in one request.
// A PMID without one gets a Desc with PMID PMIDNull.
func (x *Context) LookupDescs(ids []pmapi.PMID) ([]pmapi.Desc, error) {
	const op = "lookup descs"
	if len(ids) == 0 {
		return nil, pmapi.ErrTooSmall
	}
	c, err := x.ready(op)
	if err != nil {
		return nil, err
	}
	if c.features&pdu.FeatureDescs == 0 || len(ids) == 1 {
		out := make([]pmapi.Desc, len(ids))
		for i, id := range ids {
			d, err := x.LookupDesc(id)
			if _, ok := err.(pmapi.Errno); ok {
				d = pmapi.Desc{PMID: pmapi.PMIDNull}
			} else if err != nil {
				return nil, err
			}
			out[i] = d
		}
		return out, nil
	}
	p, err := x.call(op, pdu.EncodeIDs(pdu.DescIDs, -1, ids), pdu.Descs)
	if err != nil {
		return nil, err
	}
	ds, err := pdu.DecodeDescs(p)
	if err == nil && len(ds) != len(ids) {
		err = &pdu.FormatError{Type: pdu.Descs, Msg: "descriptor count differs from the request", Code: pmapi.ErrIPC}
	}
	if err != nil {
		return nil, x.decoded(op, err)
	}
	for _, d := range ds {
		if d.PMID != pmapi.PMIDNull {
			x.types[d.PMID] = d.Type
		}
	}
	return ds, nil
}

// InDom is pmGetInDom.
func (x *Context) InDom(indom pmapi.InDom) ([]pmapi.Instance, error) {
	return x.instances(pdu.InstanceQuery{InDom: indom, Inst: pmapi.InNull})
}

// LookupInDom is pmLookupInDom: the number of the instance called name,
// the first the PMDA answers with, as libpcp takes it (an empty name asks
// for every instance, so it is the first of the domain).
func (x *Context) LookupInDom(indom pmapi.InDom, name string) (int32, error) {
	insts, err := x.instances(pdu.InstanceQuery{InDom: indom, Inst: pmapi.InNull, Name: name})
	if err != nil {
		return pmapi.InNull, err
	}
	if len(insts) == 0 {
		return pmapi.InNull, pmapi.ErrInst
	}
	return insts[0].ID, nil
}

// NameInDom is pmNameInDom: the name of instance inst.
func (x *Context) NameInDom(indom pmapi.InDom, inst int32) (string, error) {
	insts, err := x.instances(pdu.InstanceQuery{InDom: indom, Inst: inst})
	if err != nil {
		return "", err
	}
	if len(insts) != 1 {
		return "", pmapi.ErrInst
	}
	return insts[0].Name, nil
}

func (x *Context) instances(q pdu.InstanceQuery) ([]pmapi.Instance, error) {
	const op = "get indom"
	if q.InDom == pmapi.InDomNull {
		return nil, pmapi.ErrInDom
	}
	p, err := x.call(op, pdu.EncodeInstanceReq(q), pdu.Instance)
	if err != nil {
		return nil, err
	}
	_, insts, err := pdu.DecodeInstances(p)
	if err != nil {
		return nil, x.decoded(op, err)
	}
	return insts, nil
}

// TextDirect or'd into a Text kind asks for exactly that text, without
// PCP's fallback (PM_TEXT_DIRECT).
const TextDirect pmapi.TextKind = 16

// Text is pmLookupText / pmLookupInDomText. As in libpcp, a request for
// help text that fails or finds it empty falls back to the one-line text,
// unless kind includes TextDirect.
func (x *Context) Text(id uint32, kind pmapi.TextKind) (string, error) {
	const op = "lookup text"
	direct := kind&TextDirect != 0
	kind &^= TextDirect
	for {
		p, err := x.call(op, pdu.EncodeTextReq(id, kind), pdu.Text)
		var text string
		if err == nil {
			if _, text, err = pdu.DecodeText(p); err != nil {
				return "", x.decoded(op, err)
			}
		}
		_, replied := err.(pmapi.Errno)
		if !direct && kind&pmapi.TextHelp != 0 && (replied || err == nil && text == "") {
			kind = kind&^pmapi.TextHelp | pmapi.TextOneLine
			continue
		}
		return text, err
	}
}

// Labels returns the label sets of one level of the hierarchy.
func (x *Context) Labels(level pmapi.LabelFlag, id uint32) ([]pmapi.LabelSet, error) {
	const op = "get labels"
	c, err := x.ready(op)
	if err != nil {
		return nil, err
	}
	if c.features&pdu.FeatureLabels == 0 {
		return nil, pmapi.ErrNoLabels
	}
	ident := id
	switch {
	case level&pmapi.LabelContext != 0:
		ident = uint32(pmapi.PMIDNull)
	case level&pmapi.LabelDomain != 0:
		ident = pmapi.PMID(id).Domain()
	case level&pmapi.LabelInstances != 0:
		if err := x.sendProfile(); err != nil {
			return nil, err
		}
	}
	p, err := x.call(op, pdu.EncodeLabelReq(ident, level), pdu.Label)
	if err != nil {
		return nil, err
	}
	gotID, gotLevel, sets, err := pdu.DecodeLabels(p)
	if err == nil && (gotID != ident || gotLevel != level) {
		err = &pdu.FormatError{Type: pdu.Label, Msg: "reply is for another request", Code: pmapi.ErrIPC}
	}
	if err != nil {
		return nil, x.decoded(op, err)
	}
	return sets, nil
}

// AddProfile is pmAddProfile: later fetches return insts of indom (all of
// its instances if insts is empty; every instance of every domain if
// indom is InDomNull).
func (x *Context) AddProfile(indom pmapi.InDom, insts ...int32) {
	x.prof.Add(indom, insts)
	x.profSent = false
}

// DelProfile is pmDelProfile: later fetches leave out insts of indom (all
// of them if insts is empty; everything if indom is InDomNull).
func (x *Context) DelProfile(indom pmapi.InDom, insts ...int32) {
	x.prof.Del(indom, insts)
	x.profSent = false
}

// sendProfile sends the instance profile if pmcd does not have it yet.
// pmcd does not answer it.
func (x *Context) sendProfile() error {
	if x.profSent {
		return nil
	}
	if err := x.c.send(pdu.EncodeProfile(ctxSlot, &x.prof)); err != nil {
		return x.fail("send profile", err)
	}
	x.profSent = true
	return nil
}

// Fetch is pmFetch. It uses the high resolution result when pmcd offers
// it. Values that pmcd sends without their type (32-bit ones) are typed by
// the metric's descriptor, which Fetch looks up the first time it meets a
// PMID.
func (x *Context) Fetch(ids []pmapi.PMID, r *pmapi.Result) error {
	const op = "fetch"
	if len(ids) == 0 {
		return pmapi.ErrTooSmall
	}
	if _, err := x.ready(op); err != nil {
		return err
	}
	if err := x.learnTypes(ids); err != nil {
		return err
	}
	if err := x.sendProfile(); err != nil {
		return err
	}
	if err := x.fetch(ids, r); err != nil {
		return x.fail(op, err)
	}
	return nil
}

// learnTypes looks up the descriptors of ids not seen before.
func (x *Context) learnTypes(ids []pmapi.PMID) error {
	var missing []pmapi.PMID
	for _, id := range ids {
		if _, ok := x.types[id]; !ok {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	_, err := x.LookupDescs(missing)
	if _, ok := err.(pmapi.Errno); err != nil && !ok {
		return err
	}
	for _, id := range missing {
		if _, ok := x.types[id]; !ok {
			x.types[id] = pmapi.TypeUnknown
		}
	}
	return nil
}

// fetch sends one fetch on the current connection and decodes the reply
// into r. Its errors are raw: transport failures and *replyError.
func (x *Context) fetch(ids []pmapi.PMID, r *pmapi.Result) error {
	c := x.c
	t, want := pdu.Fetch, pdu.Result
	if c.features&pdu.FeatureHighRes != 0 {
		t, want = pdu.HighResFetch, pdu.HighResResult
	}
	c.req = pdu.EncodeFetchIn(c.req, t, ctxSlot, ids)
	p, flags, err := c.call(c.req, want)
	if err != nil {
		return err
	}
	err = pdu.DecodeResult(p, r, func(id pmapi.PMID) pmapi.Type { return x.types[id] })
	if err == nil && len(r.Sets) != len(ids) {
		err = &pdu.FormatError{Type: want, Msg: "value set count differs from the request", Code: pmapi.ErrIPC}
	}
	if err != nil {
		r.Sets = r.Sets[:0]
		return err
	}
	if flags != 0 {
		// pmcd's agents or namespace changed: descriptors may have too.
		x.types = map[pmapi.PMID]pmapi.Type{}
	}
	return nil
}
