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
// pmapi.Atom, copied out of the record (equal short values share one
// copy).
//
// Opening an archive reads what libpcp reads: the label of its first
// data volume, its temporal index and its metadata. Data volumes are
// opened when first read (their labels checked then, as libpcp checks
// them when it changes volume), and records are read where the reading
// position is, by byte offset, forwards or backwards, through a window
// that grows while reading carries on from it (see source.go). The
// contexts of a process reading one plain file share their windows,
// keeping the last few (2 MB), and which records of them were found
// sound, so that a file several contexts read through together is read
// from it, and its records checked, once (shared.go, checked.go). A
// record of the same shape as one found sound before (the same value
// sets and value block layout: a regular archive's) is checked by
// comparing those bytes (shape.go).
// Nothing is kept of the records but the last few read (stream.go).
// The end of an archive is found as pmGetArchiveEnd finds it, from the
// end of the last volume (end.go). So opening an archive, and reading
// near its start, cost the same however long it is, and memory does not
// grow with its size. Interpolation keeps only the bounding values of each
// metric-instance it is asked for; stepping forwards through regular
// records it keeps them once a metric, as columns (uniform.go).
//
// Bad input gives a *FormatError naming the file, the volume (or the
// metadata or index) and the byte offset, wrapping the PCP error code
// libpcp would give, when libpcp would give it: at open for the labels,
// the metadata and the temporal index (and an .xz file's framing), when a
// record is read for its framing and value sets, when the end is sought
// for the last records. Damage that libpcp reads past without a word
// (integrity.go) is read past here too, so that answers stay libpcp's,
// and reported to Options.Warn. Nothing in this package panics on bad
// input, and a damaged length word never makes a buffer of its length.
//
// It does not evaluate derived metrics (libpcp's global and anonymous
// event.* derived metrics belong to package derive), print anything in
// PCP's formats (cmd/pminfo), or write archives. Where libpcp's answers
// depend on an environment variable, Options says so instead.
package archive
