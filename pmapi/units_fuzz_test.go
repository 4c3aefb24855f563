package pmapi

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// FuzzParseUnits checks that no input makes ParseUnits or String panic,
// and that whatever parses prints as something that parses again.
func FuzzParseUnits(f *testing.F) {
	if fh, err := os.Open(goldenUnits); err == nil {
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			if fields := strings.Split(sc.Text(), "\t"); fields[0] == "P" {
				f.Add(fields[1])
			}
		}
		fh.Close()
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, _, err := ParseUnits(s)
		if err != nil {
			return
		}
		printed := u.String()
		if _, _, err := ParseUnits(printed); err != nil && !strings.Contains(printed, "time-") {
			t.Errorf("ParseUnits(%q) = %v, which prints as %q and does not parse: %v", s, u, printed, err)
		}
	})
}
