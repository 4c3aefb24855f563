package main

import (
	"fmt"
	"io"

	"github.com/gopcp/pmie/eval"
)

// checkUnits reports comparisons between values of different dimensions
// (a byte rate against "10 count/sec", say), which pmie accepts silently.
// It returns how many it found.
func checkUnits(p *eval.Program, stderr io.Writer) int {
	n := 0
	for _, r := range p.Rules {
		for _, c := range eval.MixedComparisons(r) {
			fmt.Fprintf(stderr, "%s: warning - rule %s compares %s (%s) with %s (%s)\n",
				prog, r.Name, c.Left, c.LeftUnits, c.Right, c.RightUnits)
			n++
		}
	}
	return n
}
