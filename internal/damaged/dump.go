package damaged

import (
	"errors"
	"fmt"

	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/archive"
)

// Dump reads the archive name as pmdumplog does (pmSetMode forwards from
// the start, then pmFetchArchive until it fails) and says how far it got,
// one line at a time in the form the goldens give real pmdumplog's
// (testdata/golden/damaged/gen.sh): "feature: unsupported" if it had to
// open the archive without the feature check, as pmdumplog retries,
// "open: MESSAGE" if it cannot open the archive, "end: MESSAGE" if it
// cannot find its end, "records: N" (the records read) and "fetch:
// MESSAGE" if reading stopped on an error. MESSAGE is PCP's. Details
// lists the damage found and warned of, as FormatErrors (the file, the
// part of the archive, the offset).
func Dump(name string) (lines []string, details []error) {
	var fe *archive.FormatError
	detail := func(err error) {
		if errors.As(err, &fe) {
			details = append(details, fe)
		}
	}
	opts := archive.Options{Warn: detail}
	c, err := archive.Open(name, opts)
	if pmapi.Code(err) == pmapi.ErrFeature {
		lines = append(lines, "feature: unsupported")
		detail(err)
		opts.NoFeatureCheck = true
		c, err = archive.Open(name, opts)
	}
	if err != nil {
		detail(err)
		return append(lines, "open: "+pmapi.Code(err).Error()), details
	}
	defer c.Close()
	if _, err := c.End(); err != nil {
		lines = append(lines, "end: "+pmapi.Code(err).Error())
		detail(err)
	}
	start, _ := c.Bounds()
	c.SetMode(pmapi.ModeForw, start, 0)
	var r pmapi.Result
	n := 0
	for {
		err := c.FetchArchive(&r)
		if err == pmapi.ErrEOL {
			return append(lines, fmt.Sprintf("records: %d", n)), details
		}
		if err != nil {
			detail(err)
			return append(lines, fmt.Sprintf("records: %d", n), "fetch: "+pmapi.Code(err).Error()), details
		}
		n++
	}
}
