package archive

import (
	"fmt"
	"strconv"

	"github.com/gopcp/pmie/pmapi"
)

// The volume numbers the archive label uses for the files that are not
// data volumes.
const (
	VolMeta  = -1 // the .meta file
	VolIndex = -2 // the .index file
)

// FormatError reports input that is not a well-formed archive: a
// truncated or corrupted file, or one of a log format this package does
// not read. It names the file, the part of the archive the file is (a
// data volume, the metadata or the temporal index) and the byte offset,
// in the uncompressed file, where decoding failed.
type FormatError struct {
	Path   string      // the file
	Volume int         // a data volume number, or VolMeta or VolIndex
	Offset int64       // byte offset of the bad data
	Code   pmapi.Errno // the PCP error this is (ErrLogRec, ErrLabel, ...)
	Msg    string      // what is wrong
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("%s: %s: offset %d: %s", e.Path, volumeName(e.Volume), e.Offset, e.Msg)
}

// Unwrap returns the PCP error code, so that pmapi.Code and errors.Is
// see it.
func (e *FormatError) Unwrap() error { return e.Code }

func volumeName(vol int) string {
	switch vol {
	case VolMeta:
		return "metadata"
	case VolIndex:
		return "temporal index"
	}
	return "volume " + strconv.Itoa(vol)
}

// errorf builds a FormatError for a fault at byte offset off of file f.
func (f *file) errorf(off int64, code pmapi.Errno, format string, args ...any) *FormatError {
	return &FormatError{Path: f.path, Volume: f.vol, Offset: off, Code: code, Msg: fmt.Sprintf(format, args...)}
}
