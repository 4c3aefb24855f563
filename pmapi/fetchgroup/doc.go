// Package fetchgroup is a Go counterpart of libpcp's fetchgroup API
// (pmCreateFetchGroup(3) and friends): a Group over one pmapi.Context
// collects metrics registered by name (single instances, whole instance
// domains, fields of event records and the fetch timestamp), each with a wanted type and optional
// unit, scale and rate conversion, and fills them all in from one
// Context.Fetch per Group.Fetch.
//
// It follows libpcp 6.0.3's behaviour: the errors Extend* give (Errno
// values whose text is pmErrStr's), the sentinel values and statuses left
// where a value is missing or cannot be converted, PM_ERR_AGAIN for a
// rate before there are two samples, discrete metrics keeping their last
// value while absent, instance domains sorted by instance number with
// PM_ERR_TOOBIG past the caller's limit, and the instance profile
// changes libpcp makes as items are added.
//
// It does not own the context's namespace, metadata or values (those are
// the Context's), nor derived metrics (wrap the Context with derive
// first). Event record fields are the records' own parameters: the
// event.flags and event.missed pseudo-fields libpcp adds when it unpacks
// records are not given.
package fetchgroup
