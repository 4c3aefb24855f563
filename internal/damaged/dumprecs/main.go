// Command dumprecs reads an archive as pmdumplog does (pmSetMode
// forwards from the archive's start, then pmFetchArchive until it fails)
// and prints how far it got, in the form scripts/compare-damaged.sh
// compares with real pmdumplog's: whether the end of the archive was
// found, the number of records read, and the error that stopped the
// reading (PCP's message), with the detail of any damage on stderr.
//
//	go run ./internal/damaged/dumprecs ARCHIVE
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/archive"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: dumprecs ARCHIVE")
		os.Exit(2)
	}
	os.Exit(dump(os.Args[1]))
}

func detail(err error) {
	var fe *archive.FormatError
	if errors.As(err, &fe) {
		fmt.Fprintf(os.Stderr, "dumprecs: %v\n", fe)
	}
}

func dump(name string) int {
	opts := archive.Options{Warn: func(err error) { fmt.Fprintf(os.Stderr, "dumprecs: warning: %v\n", err) }}
	c, err := archive.Open(name, opts)
	if pmapi.Code(err) == pmapi.ErrFeature {
		// as pmdumplog does
		fmt.Println("feature: unsupported")
		detail(err)
		opts.NoFeatureCheck = true
		c, err = archive.Open(name, opts)
	}
	if err != nil {
		fmt.Printf("open: %s\n", pmapi.Code(err))
		detail(err)
		return 1
	}
	defer c.Close()
	if _, err := c.End(); err != nil {
		fmt.Printf("end: %s\n", pmapi.Code(err))
		detail(err)
	}
	start, _ := c.Bounds()
	c.SetMode(pmapi.ModeForw, start, 0)
	var r pmapi.Result
	n := 0
	for {
		err := c.FetchArchive(&r)
		if err == pmapi.ErrEOL {
			break
		}
		if err != nil {
			fmt.Printf("records: %d\nfetch: %s\n", n, pmapi.Code(err))
			detail(err)
			return 0
		}
		n++
	}
	fmt.Printf("records: %d\n", n)
	return 0
}
