// Command farm serves many pmcd stand-ins (package pmcdtest) on loopback
// in one process, for trying and measuring a pmie fleet without a farm
// of real hosts:
//
//	farm -n 2000 -latency 50ms -o hosts [-ns FILE] [-hot 10]
//
// serves n stand-ins (host names standin0000...), each answering every
// request after latency, writes their host specifications to the hosts
// file, one a line, and runs until interrupted. Their metrics are those
// of the namespace file (-ns; by default the one recorded from a real
// pmcd for the rules PCP's pmieconf makes), counters going up as time
// passes and other values as recorded, every -hot'th host's ten times
// over.
//
//	farm -record HOST -o FILE NAME...
//
// records such a namespace file from the pmcd at HOST: the descriptors,
// instance domains and current values of the metrics named (those it
// lacks are said and left out).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/gopcp/pmie/internal/pmcdtest"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/source"
)

func main() {
	n := flag.Int("n", 10, "stand-in hosts to serve")
	latency := flag.Duration("latency", 0, "delay before every answer")
	out := flag.String("o", "", "file to write (the hosts, or the recorded namespace)")
	ns := flag.String("ns", "testdata/standin/pmieconf.json", "namespace file to serve")
	hot := flag.Int("hot", 0, "every hot'th host's values ten times over (0: none)")
	rate := flag.Float64("rate", 10, "how fast counters go up, a second")
	record := flag.String("record", "", "record a namespace file from the pmcd at this host")
	flag.Parse()
	var err error
	if *record != "" {
		err = recordNamespace(*record, *out, flag.Args())
	} else {
		err = serve(*n, *latency, *out, *ns, *hot, *rate)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "farm:", err)
		os.Exit(1)
	}
}

// serve runs the stand-ins until interrupted.
func serve(n int, latency time.Duration, out, nsFile string, hot int, rate float64) error {
	rec, err := pmcdtest.LoadRecorded(nsFile)
	if err != nil {
		return err
	}
	start := time.Now()
	var specs []string
	var servers []*pmcdtest.Server
	for i := range n {
		s := pmcdtest.New(rec.Namespace(fmt.Sprintf("standin%04d", i)))
		if err := s.Start("tcp", "127.0.0.1:0"); err != nil {
			return err
		}
		s.SetLatency(latency)
		scale := 1.0
		if hot > 0 && i%hot == 0 {
			scale = 10
		}
		s.SetDynamic(pmcdtest.Varying(start, rate*scale, scale))
		servers = append(servers, s)
		specs = append(specs, s.Spec())
	}
	if out != "" {
		if err := os.WriteFile(out, []byte(strings.Join(specs, "\n")+"\n"), 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "farm: %d stand-in hosts on 127.0.0.1, %v latency\n", n, latency)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	<-sig
	for _, s := range servers {
		s.Stop()
	}
	return nil
}

// recordNamespace records the metrics names from the pmcd at host.
func recordNamespace(host, out string, names []string) error {
	ctx, err := (&source.Opener{}).Open(source.Host(host))
	if err != nil {
		return err
	}
	defer ctx.Close()
	rec := pmcdtest.Recorded{Source: "farm -record " + host + " (" + time.Now().UTC().Format(time.DateOnly) + ")"}
	indoms := map[pmapi.InDom]bool{}
	sort.Strings(names)
	for _, name := range names {
		id, err := ctx.LookupName(name)
		if err != nil {
			fmt.Fprintf(os.Stderr, "farm: %s: %v: not recorded\n", name, err)
			continue
		}
		d, err := ctx.LookupDesc(id)
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		var r pmapi.Result
		if err := ctx.Fetch([]pmapi.PMID{id}, &r); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		m := pmcdtest.RecordedMetric{Name: name, Desc: d}
		for _, v := range r.Sets[0].Values {
			rv := pmcdtest.RecordedValue{Inst: v.Inst}
			if d.Type == pmapi.TypeString {
				rv.Str = v.Atom.Str()
			} else {
				rv.Num = v.Atom.Float64()
			}
			m.Values = append(m.Values, rv)
		}
		rec.Metrics = append(rec.Metrics, m)
		if d.InDom != pmapi.InDomNull && !indoms[d.InDom] {
			indoms[d.InDom] = true
			insts, err := ctx.InDom(d.InDom)
			if err != nil {
				return fmt.Errorf("%s: instances: %v", name, err)
			}
			rec.InDoms = append(rec.InDoms, pmcdtest.RecordedInDom{InDom: d.InDom, Instances: insts})
		}
	}
	b, err := json.MarshalIndent(rec, "", " ")
	if err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.Write(append(b, '\n'))
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}
