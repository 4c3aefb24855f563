// Command mkdamaged writes the corpus of damaged archives (see package
// damaged) to a directory, and lists its cases, one a line, with tabs
// between: name, the test archive it was made from, the damage, the
// metrics to give pminfo -f and the rules pmie runs on it (damaged.Metrics
// and damaged.Rules).
//
//	go run ./internal/damaged/mkdamaged [-src testdata/archives] DIR
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/gopcp/pmie/internal/damaged"
)

func main() {
	src := flag.String("src", "testdata/archives", "directory of the test archives")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: mkdamaged [-src DIR] OUTDIR")
		os.Exit(2)
	}
	cases, err := damaged.Write(flag.Arg(0), *src)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkdamaged:", err)
		os.Exit(1)
	}
	for _, c := range cases {
		fmt.Printf("%s\t%s\t%s\t%s\t%s\n", c.Name, c.Source, c.Damage, strings.Join(damaged.Metrics(c.Source), " "), damaged.Rules(c.Source))
	}
}
