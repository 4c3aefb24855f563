// Command broker is the recorder gen.sh runs beside real pmie: the
// stand-in broker of internal/stomptest on a free loopback port, which it
// writes to -port, rewriting -record with the broker's record after each
// change, until it is killed.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"sync"

	"github.com/gopcp/pmie/internal/stomptest"
)

func main() {
	behaviour := flag.String("behaviour", "", "the broker's behaviour (stomptest.ParseBehaviour)")
	portFile := flag.String("port", "", "file to write the port to")
	record := flag.String("record", "", "file to keep the record in")
	flag.Parse()
	b, err := stomptest.ParseBehaviour(*behaviour)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	br, err := stomptest.Start("127.0.0.1:0", b)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var mu sync.Mutex
	br.OnChange(func() {
		mu.Lock()
		defer mu.Unlock()
		os.WriteFile(*record, []byte(br.Record()), 0o644)
	})
	os.WriteFile(*record, nil, 0o644)
	if err := os.WriteFile(*portFile, []byte(strconv.Itoa(br.Port())+"\n"), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	select {}
}
