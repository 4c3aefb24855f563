package pmapi

import (
	"sort"
	"strings"
	"syscall"
)

// MaxLabelJSONLen is PM_MAXLABELJSONLEN, the longest merged label set
// libpcp will produce.
const MaxLabelJSONLen = 8192

// MergeLabels is pmMergeLabelSets(3): it merges label sets given in
// increasing order of precedence (context, domain, instance domain,
// cluster, item, instance), a label in a later set replacing one of the
// same name in an earlier set, and returns the result in PCP's JSONB
// form: {"name":value,...} sorted by name, a label with no value as null.
//
// Nil sets are absent levels and are skipped; if every set is nil the
// result is "" (pminfo then prints nothing). keep, if not nil, drops the
// labels for which it is false, after precedence is decided (a dropped
// label still hides the same name at lower levels). A result of
// MaxLabelJSONLen bytes or more is an error, E2BIG, as in libpcp.
func MergeLabels(sets []*LabelSet, keep func(Label) bool) (string, error) {
	merged := map[string]Label{}
	any := false
	for _, s := range sets {
		if s == nil {
			continue
		}
		any = true
		for _, l := range s.Labels {
			merged[l.Name] = l
		}
	}
	if !any {
		return "", nil
	}
	names := make([]string, 0, len(merged))
	for n := range merged {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteByte('{')
	first := true
	for _, n := range names {
		l := merged[n]
		if keep != nil && !keep(l) {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(`"` + n + `":`)
		if l.Value == "" {
			b.WriteString("null")
		} else {
			b.WriteString(l.Value)
		}
	}
	b.WriteByte('}')
	if b.Len() >= MaxLabelJSONLen {
		return "", Errno(-int32(syscall.E2BIG))
	}
	return b.String(), nil
}
