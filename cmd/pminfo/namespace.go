package main

import "github.com/gopcp/pmie/pmapi"

// noContext is what lies under a namespace file when pminfo needs no
// source (-n with only -m): every query fails as libpcp's do without a
// current context.
type noContext struct{}

func (noContext) Source() pmapi.Source                        { return pmapi.Source{} }
func (noContext) LookupName(string) (pmapi.PMID, error)       { return pmapi.PMIDNull, pmapi.ErrNoContext }
func (noContext) NameAll(pmapi.PMID) ([]string, error)        { return nil, pmapi.ErrNoContext }
func (noContext) Children(string) ([]pmapi.Child, error)      { return nil, pmapi.ErrNoContext }
func (noContext) LookupDesc(pmapi.PMID) (pmapi.Desc, error)   { return pmapi.Desc{}, pmapi.ErrNoContext }
func (noContext) InDom(pmapi.InDom) ([]pmapi.Instance, error) { return nil, pmapi.ErrNoContext }
func (noContext) Text(uint32, pmapi.TextKind) (string, error) { return "", pmapi.ErrNoContext }
func (noContext) Labels(pmapi.LabelFlag, uint32) ([]pmapi.LabelSet, error) {
	return nil, pmapi.ErrNoContext
}
func (noContext) Fetch([]pmapi.PMID, *pmapi.Result) error { return pmapi.ErrNoContext }
func (noContext) Close() error                            { return nil }
