// Command pmie-notify routes and sends the alerts pmie hands it.
//
//	pmie-notify [-C] FILE
//	pmie-notify --help
//
// pmie --route-alerts FILE starts it and writes each fired action to its
// standard input as one line of JSON (package notify/alert). It routes
// each alert as the alerting configuration FILE says and sends it to the
// receivers in the background; at the end of its input it sends what is
// still queued, within the file's shutdown_timeout, and exits. Problems
// are reported on standard error, one line each, which pmie logs as its
// own messages. With -C it only checks FILE.
//
// It leaves SIGINT, SIGHUP and SIGTERM to pmie: the end of its input,
// when pmie exits for whatever reason, is what stops it, so no queued
// alert is lost to a signal meant for pmie.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/gopcp/pmie/notify"
)

const prog = "pmie-notify"

func main() {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "%s: internal error: %v\n", prog, r)
			os.Exit(2)
		}
	}()
	signal.Ignore(syscall.SIGINT, syscall.SIGHUP, syscall.SIGTERM)
	os.Exit(run(os.Args[1:], os.Stdin, os.Stderr))
}

// help is what -? (or --help, -h) prints after the usage line.
const help = `Routes the alerts pmie hands it (one JSON line each on standard input)
as the alerting configuration FILE says. pmie --route-alerts FILE starts
it; there is no need to run it by hand.

  -C    check FILE and exit
`

func run(args []string, in io.Reader, stderr io.Writer) int {
	check := false
	if len(args) > 0 && args[0] == "-C" {
		check, args = true, args[1:]
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	} else if len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		switch args[0] {
		case "-?", "-h", "--help":
			fmt.Fprintf(stderr, "Usage: %s [-C] FILE\n\n%s", prog, help)
			return 0
		}
		fmt.Fprintf(stderr, "%s: unknown option %s\n", prog, args[0])
		args = nil
	}
	if len(args) != 1 {
		fmt.Fprintf(stderr, "Usage: %s [-C] FILE\n", prog)
		return 1
	}
	cfg, err := notify.Load(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return 1
	}
	if check {
		return 0
	}
	logs := make(chan string, 64)
	logged := make(chan struct{})
	go func() {
		// one writer, so that lines from the receivers never interleave
		for msg := range logs {
			fmt.Fprintln(stderr, msg)
		}
		close(logged)
	}()
	n := notify.New(cfg, notify.Options{Log: func(msg string) { logs <- msg }})
	readErr := relay(in, cfg.Labels, n, func(msg string) { logs <- msg })
	status := 0
	if err := n.Close(context.Background()); err != nil {
		logs <- err.Error()
		status = 1
	}
	if readErr != nil {
		logs <- fmt.Sprintf("alerting: reading alerts: %v", readErr)
		status = 1
	}
	close(logs)
	<-logged
	return status
}

// relay sends each alert read from in (one JSON object a line) through
// n, with the configuration's labels; a line that is not an alert is
// reported and skipped.
func relay(in io.Reader, labels map[string]string, n *notify.Notifier, log func(string)) error {
	r := bufio.NewReaderSize(in, 64<<10)
	for line := 1; ; line++ {
		b, err := r.ReadBytes('\n')
		if len(b) > 0 {
			var a notify.Alert
			if jerr := json.Unmarshal(b, &a); jerr != nil {
				log(fmt.Sprintf("alerting: alert %d: %v", line, jerr))
			} else {
				a.Labels = labels
				if a.Labels == nil {
					a.Labels = map[string]string{}
				}
				n.Send(&a)
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
