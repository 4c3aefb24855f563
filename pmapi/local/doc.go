// Package local is the embedded collector: it reads /proc and /sys directly
// and presents the same names, descriptors, instance domains and values as
// PCP 6.0.3's linux PMDA, so pmie works without PCP installed. Its Context
// implements pmapi.Context.
package local
