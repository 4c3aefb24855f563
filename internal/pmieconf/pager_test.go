package pmieconf

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestPager pages ten lines on a five-row terminal with each answer.
func TestPager(t *testing.T) {
	tests := []struct {
		keys  string
		shown int // lines shown
		asked int // times "more?" was asked
	}{
		{"  ", 10, 2},     // a screenful (4 lines) each time
		{"q", 4, 1},       // stop
		{"\n\n\n", 10, 6}, // a line at a time; when keys cannot be read, a line after each question
		{"x ", 10, 4},     // an unknown key asks again, at length; then as above
	}
	for _, tc := range tests {
		var out bytes.Buffer
		keys := []byte(tc.keys)
		p := &Pager{Out: &out, Rows: 5, Cols: 10, ReadKey: func() (byte, bool) {
			if len(keys) == 0 {
				return 0, false
			}
			k := keys[0]
			keys = keys[1:]
			return k, true
		}}
		for i := 1; i <= 10; i++ {
			fmt.Fprintf(p, "line %d\n", i)
		}
		got := out.String()
		if n := strings.Count(got, "line "); n != tc.shown {
			t.Errorf("keys %q: %d lines shown, want %d\n%s", tc.keys, n, tc.shown, got)
		}
		if n := strings.Count(got, "more?"); n != tc.asked {
			t.Errorf("keys %q: asked %d times, want %d\n%s", tc.keys, n, tc.asked, got)
		}
	}
}
