package alert

import (
	"fmt"
	"testing"
)

func TestIsPowerOf10(t *testing.T) {
	var got []int64
	for c := int64(0); c <= 1000; c++ {
		if IsPowerOf10(c) {
			got = append(got, c)
		}
	}
	if fmt.Sprint(got) != "[1 10 100 1000]" {
		t.Errorf("logged at %v", got)
	}
}
