//go:build !unix

package derive

import "time"

// cpuTime is not measured here.
func cpuTime() time.Duration { return 0 }
