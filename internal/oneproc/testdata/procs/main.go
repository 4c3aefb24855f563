// Command procs prints how many processors it runs on, having imported
// oneproc.
package main

import (
	"fmt"
	"runtime"

	_ "github.com/gopcp/pmie/internal/oneproc"
)

func main() { fmt.Println(runtime.GOMAXPROCS(0)) }
