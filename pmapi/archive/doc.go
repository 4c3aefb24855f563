// Package archive reads PCP archives (LOGARCHIVE(5)), log formats 2 and 3,
// and answers for them exactly as libpcp 6.0.3 does.
//
// It owns the archive format: labels, metadata (metric descriptors and
// names; instance domains, including v3 delta records; v2 and v3 label
// sets; help text), the temporal index and data volumes (results and
// <mark> records, every value type, insitu or in value blocks), in plain
// files or compressed with xz, lzma, bzip2 or gzip, over any number of
// volumes.
//
// Two ways in:
//
//   - OpenArchive and Archive.Records read one archive's records in order
//     (a Reader gives each record's time, whether it is a <mark>, and its
//     values), for tools and tests. The Reader reuses its storage and does
//     not allocate per record once warmed up.
//   - Open makes a Context over one archive, a directory of them or a
//     comma-separated list, as pmNewContext(PM_CONTEXT_ARCHIVE) and
//     pmie -a do. It implements pmapi.Context and pmapi.Seeker: libpcp's
//     namespace (in its order), descriptors, instance domains and labels as
//     of the current time, help text, instance profiles, and Fetch in
//     ModeInterp (libpcp's interpolation, value for value, including how
//     <mark>s suppress counters and bounds carry over between fetches),
//     ModeForw and ModeBack.
//
// Strings, aggregates and event records are returned as the bytes the
// archive holds (event records in network byte order, as stored) in
// pmapi.Atom; those strings share the memory the archive was read into.
//
// Bad input gives a *FormatError naming the file, the volume (or the
// metadata or index) and the byte offset, wrapping the PCP error code
// libpcp would give; nothing in this package panics on bad input.
//
// It does not evaluate derived metrics (libpcp's global and anonymous
// event.* derived metrics belong to package derive), print anything in
// PCP's formats (cmd/pminfo), or write archives. Where libpcp's answers
// depend on an environment variable, Options says so instead.
package archive
