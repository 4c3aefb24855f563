package pmcdtest

import (
	"time"

	"github.com/gopcp/pmie/internal/pdu"
	"github.com/gopcp/pmie/pmapi"
)

// handle answers one request, as pmcd 6.0.3 would for the namespace. It
// returns nil for requests that get no answer (credentials, profiles).
func (ss *session) handle(t pdu.Type, p []byte) []byte {
	s := ss.s
	s.mu.Lock()
	defer s.mu.Unlock()
	var reply []byte
	var err error
	switch t {
	case pdu.Creds:
		if _, err = pdu.DecodeCreds(p); err == nil {
			return nil
		}
	case pdu.Profile:
		var prof *pmapi.Profile
		if _, prof, err = pdu.DecodeProfile(p); err == nil {
			ss.prof = prof
			return nil
		}
	case pdu.PMNSNames:
		reply, err = s.lookupNames(p)
	case pdu.PMNSIDs:
		reply, err = s.nameAll(p)
	case pdu.PMNSChild, pdu.PMNSTraverse:
		reply, err = s.children(p)
	case pdu.DescReq:
		reply, err = s.desc(p)
	case pdu.DescIDs:
		reply, err = s.descs(p)
	case pdu.InstanceReq:
		reply, err = s.instances(p)
	case pdu.TextReq:
		reply, err = s.text(p)
	case pdu.LabelReq:
		reply, err = s.labels(p, ss.prof)
	case pdu.Fetch, pdu.HighResFetch:
		reply, err = s.fetch(p, ss.prof)
	default:
		err = pmapi.ErrIPC
	}
	if err != nil {
		return pdu.EncodeError(int32(pmapi.Code(err)))
	}
	return reply
}

func (s *Server) lookupNames(p []byte) ([]byte, error) {
	names, _, err := pdu.DecodeNames(p)
	if err != nil {
		return nil, err
	}
	ids := make([]pmapi.PMID, len(names))
	ok := 0
	var first error
	for i, name := range names {
		ids[i] = pmapi.PMIDNull
		n := s.tree.find(name)
		switch {
		case name == "" || n == nil:
			first = orErr(first, pmapi.ErrName)
		case n.leaf == nil:
			first = orErr(first, pmapi.ErrNonLeaf)
		default:
			ids[i] = n.leaf.Desc.PMID
			ok++
		}
	}
	if len(names) == 1 && first != nil {
		return nil, first
	}
	return pdu.EncodeIDs(pdu.PMNSIDs, int32(ok), ids), nil
}

func orErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

func (s *Server) nameAll(p []byte) ([]byte, error) {
	_, ids, err := pdu.DecodeIDs(p, pdu.PMNSIDs)
	if err != nil {
		return nil, err
	}
	ms := s.tree.byPMID[ids[0]]
	if len(ms) == 0 {
		if !s.tree.hasDomain(ids[0].Domain()) {
			return nil, pmapi.ErrNoAgent
		}
		return nil, pmapi.ErrPMID
	}
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Name
	}
	return pdu.EncodeNames(names, nil), nil
}

func (s *Server) children(p []byte) ([]byte, error) {
	t, name, subtype, err := pdu.DecodeNameReq(p)
	if err != nil {
		return nil, err
	}
	n := s.tree.find(name)
	if n == nil {
		return nil, pmapi.ErrName
	}
	if t == pdu.PMNSTraverse {
		return pdu.EncodeNames(n.leaves(name, nil), nil), nil
	}
	names := make([]string, len(n.kids))
	status := make([]int32, len(n.kids))
	for i, k := range n.kids {
		names[i] = k.name
		status[i] = pdu.NonLeaf
		if k.leaf != nil {
			status[i] = pdu.Leaf
		}
	}
	if subtype == 0 {
		status = nil
	}
	return pdu.EncodeNames(names, status), nil
}

func (s *Server) lookupDesc(id pmapi.PMID) (pmapi.Desc, error) {
	if m := s.tree.metric(id); m != nil {
		return m.Desc, nil
	}
	return pmapi.Desc{PMID: pmapi.PMIDNull}, pmapi.ErrPMID
}

func (s *Server) desc(p []byte) ([]byte, error) {
	id, err := pdu.DecodeDescReq(p)
	if err != nil {
		return nil, err
	}
	d, err := s.lookupDesc(id)
	if err != nil {
		return nil, err
	}
	return pdu.EncodeDesc(d), nil
}

func (s *Server) descs(p []byte) ([]byte, error) {
	_, ids, err := pdu.DecodeIDs(p, pdu.DescIDs)
	if err != nil {
		return nil, err
	}
	ds := make([]pmapi.Desc, len(ids))
	for i, id := range ids {
		ds[i], err = s.lookupDesc(id)
	}
	if len(ids) == 1 && err != nil {
		return nil, err
	}
	return pdu.EncodeDescs(ds), nil
}

func (s *Server) instances(p []byte) ([]byte, error) {
	q, err := pdu.DecodeInstanceReq(p)
	if err != nil {
		return nil, err
	}
	in := s.tree.indoms[q.InDom]
	if in == nil {
		return nil, pmapi.ErrInDom
	}
	if q.Inst == pmapi.InNull && q.Name == "" {
		return pdu.EncodeInstances(q.InDom, in.Instances), nil
	}
	for _, inst := range in.Instances {
		if (q.Name != "" && inst.Name == q.Name) || (q.Name == "" && inst.ID == q.Inst) {
			return pdu.EncodeInstances(q.InDom, []pmapi.Instance{inst}), nil
		}
	}
	return nil, pmapi.ErrInst
}

func (s *Server) text(p []byte) ([]byte, error) {
	ident, kind, err := pdu.DecodeTextReq(p)
	if err != nil {
		return nil, err
	}
	var one, help string
	switch {
	case kind&pmapi.TextPMID != 0:
		m := s.tree.metric(pmapi.PMID(ident))
		if m == nil {
			return nil, pmapi.ErrPMID
		}
		one, help = m.OneLine, m.Help
	case kind&pmapi.TextInDom != 0:
		in := s.tree.indoms[pmapi.InDom(ident)]
		if in == nil {
			return nil, pmapi.ErrInDom
		}
		one, help = in.OneLine, in.Help
	default:
		return nil, pmapi.ErrText
	}
	text := one
	if kind&pmapi.TextHelp != 0 {
		text = help
	}
	if one == "" && help == "" {
		return nil, pmapi.ErrText
	}
	return pdu.EncodeText(ident, text), nil
}

func (s *Server) labels(p []byte, prof *pmapi.Profile) ([]byte, error) {
	ident, level, err := pdu.DecodeLabelReq(p)
	if err != nil {
		return nil, err
	}
	one := func(ls []pmapi.Label) []pmapi.LabelSet {
		if len(ls) == 0 {
			return nil
		}
		return []pmapi.LabelSet{{Inst: pmapi.InNull, Labels: ls}}
	}
	var sets []pmapi.LabelSet
	switch level {
	case pmapi.LabelContext:
		sets = one(s.ns.ContextLabels)
	case pmapi.LabelDomain:
		if !s.tree.hasDomain(ident) {
			return nil, pmapi.ErrNoAgent
		}
		sets = one(s.ns.DomainLabels[ident])
	case pmapi.LabelCluster, pmapi.LabelItem:
		id := pmapi.PMID(ident)
		m := s.tree.metric(id)
		if m == nil {
			return nil, pmapi.ErrPMID
		}
		if level == pmapi.LabelItem {
			sets = one(m.Labels)
		} else {
			sets = one(s.ns.ClusterLabels[pmapi.NewPMID(id.Domain(), id.Cluster(), 0)])
		}
	case pmapi.LabelInDom, pmapi.LabelInstances:
		in := s.tree.indoms[pmapi.InDom(ident)]
		if in == nil {
			return nil, pmapi.ErrInDom
		}
		if level == pmapi.LabelInDom {
			sets = one(in.Labels)
			break
		}
		for _, inst := range in.Instances {
			if prof.Contains(in.InDom, inst.ID) {
				sets = append(sets, pmapi.LabelSet{Inst: inst.ID, Labels: in.InstLabels[inst.ID]})
			}
		}
	default:
		return nil, pmapi.ErrType
	}
	return pdu.EncodeLabels(ident, level, sets), nil
}

func (s *Server) fetch(p []byte, prof *pmapi.Profile) ([]byte, error) {
	t, _, ids, err := pdu.DecodeFetch(p)
	if err != nil {
		return nil, err
	}
	r := pmapi.Result{Time: pmapi.FromStd(time.Now())}
	for _, id := range ids {
		vs := pmapi.ValueSet{PMID: id}
		m := s.tree.metric(id)
		switch {
		case m == nil && !s.tree.hasDomain(id.Domain()):
			vs.Err = pmapi.ErrNoAgent
		case m == nil:
			vs.Err = pmapi.ErrPMID
		case m.Err != 0:
			vs.Err = m.Err
		default:
			values := m.Values
			if s.dynamic != nil {
				values = s.dynamic(m, time.Now())
			}
			for _, v := range values {
				if m.Desc.InDom == pmapi.InDomNull || prof.Contains(m.Desc.InDom, v.Inst) {
					vs.Values = append(vs.Values, v)
				}
			}
		}
		r.Sets = append(r.Sets, vs)
	}
	rt := pdu.Result
	if t == pdu.HighResFetch {
		rt = pdu.HighResResult
	}
	return pdu.EncodeResult(rt, &r), nil
}
