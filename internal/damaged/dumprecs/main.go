// Command dumprecs reads an archive as pmdumplog does and prints how
// far it got (see damaged.Dump), with the details of the damage found on
// stderr, in the form testdata/golden/damaged/gen.sh records real
// pmdumplog's (pmdumplog.txt there).
//
//	go run ./internal/damaged/dumprecs ARCHIVE
package main

import (
	"fmt"
	"os"

	"github.com/gopcp/pmie/internal/damaged"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: dumprecs ARCHIVE")
		os.Exit(2)
	}
	lines, details := damaged.Dump(os.Args[1])
	for _, l := range lines {
		fmt.Println(l)
	}
	for _, d := range details {
		fmt.Fprintf(os.Stderr, "dumprecs: %v\n", d)
	}
}
