// Package archive reads PCP archives (LOGARCHIVE(5)), log formats 2 and 3:
// the label, metadata (descriptors, instance domains, names, labels, help
// text), data volumes (results and <mark> records, optionally xz
// compressed), the temporal index, multi-volume archives and sets of
// archives. Its Context implements pmapi.Context and pmapi.Seeker with
// libpcp's interpolation.
package archive
