package pmapi

// DomainDerived is the PMID domain of derived metrics (libpcp's
// DYNAMIC_PMID).
const DomainDerived = 511

// IsDerived reports whether id is in the range libpcp gives derived
// metrics (IS_DERIVED): domain 511, an item other than 0, and cluster bit
// 11 clear (set, it marks the roots of dynamic namespace subtrees and the
// derived metrics pmlogger renumbers into archives).
func (id PMID) IsDerived() bool {
	return id != PMIDNull && id.Domain() == DomainDerived && id.Cluster()&2048 == 0 && id.Item() != 0
}
