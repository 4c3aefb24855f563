// Package oneproc puts the process it is linked into on one processor
// (GOMAXPROCS 1) while packages are still being initialised, unless
// $GOMAXPROCS says otherwise. A command imports it for that alone:
//
//	import _ "github.com/gopcp/pmie/internal/oneproc"
//
// pmie runs on one processor (see cmd/pmie's run). Asking for that in
// main, once every package is initialised, stops the world and empties a
// second processor's allocation caches, into which the initialisation
// had gone; and until then a second processor woke threads to look for
// work whenever a goroutine was started. Asked for here, early in the
// initialisation (this package imports nothing but the runtime and os,
// so it is initialised as soon as they are), that cost is not paid:
// measured, about 3 ms of CPU time of a start-up of about 50 ms, and the
// same of pmie --bogus.
//
// Test binaries (named *.test by go test) are left as they are, so that
// tests of a command keep the processors the test run was given.
package oneproc

import (
	"os"
	"runtime"
	"strings"
)

func init() {
	if os.Getenv("GOMAXPROCS") != "" || strings.HasSuffix(os.Args[0], ".test") {
		return
	}
	runtime.GOMAXPROCS(1)
}
