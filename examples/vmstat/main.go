// Command vmstat prints a small vmstat(8)-like table of a machine's
// activity, one line an interval. It is an example of embedding our
// metric sources in a Go program: it reads every value through one
// fetchgroup (package pmapi/fetchgroup, libpcp's pmFetchGroup(3) API),
// which turns counters into rates and rescales units, over whichever
// source a flag chooses:
//
//	go run ./examples/vmstat               # the embedded /proc collector (no PCP needed)
//	go run ./examples/vmstat -h localhost  # pmcd on a host
//	go run ./examples/vmstat -a testdata/archives/collector -t 1m   # a PCP archive
//
// Options: -a ARCHIVE, -h HOST or -L (the default) choose the source;
// -t INTERVAL (a Go duration, default 1s) is the time between lines; -s
// N stops after N lines (by default a live source runs until
// interrupted and an archive until its end). An archive is read from
// its start, its values interpolated every INTERVAL.
//
// The columns: time (in the source's timezone); r and b, processes
// running and blocked; swpd, free, buff and cache, Kbytes of swap used
// and of memory free, in buffers and in the page cache; si and so, pages
// swapped in and out a second; bi and bo, Kbytes read from and written to
// disks a second; in and cs, interrupts and context switches a second;
// and us, sy, id, wa and st, the percentage of CPU time spent in user
// code (with nice), in the kernel (with interrupts), idle, waiting for
// I/O, and stolen by a hypervisor. A value the source does not have is
// shown as "?". Rates need two samples, so the first line comes one
// interval after the start.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/fetchgroup"
	"github.com/gopcp/pmie/pmapi/source"
)

// column is one column of the table: a metric, the conversion the
// fetchgroup makes ("" turns counters into rates a second; units rescale
// the values, and units a second make rates of them too) and the
// column's width.
type column struct {
	head   string
	width  int
	metric string
	scale  string
}

var columns = []column{
	{"r", 2, "kernel.all.running", ""},
	{"b", 2, "kernel.all.blocked", ""},
	{"swpd", 8, "swap.used", "Kbyte"}, // bytes in the source
	{"free", 8, "mem.util.free", ""},
	{"buff", 7, "mem.util.bufmem", ""},
	{"cache", 8, "mem.util.cached", ""},
	{"si", 5, "swap.pagesin", ""},
	{"so", 5, "swap.pagesout", ""},
	{"bi", 6, "disk.all.read_bytes", "Kbyte/sec"},
	{"bo", 6, "disk.all.write_bytes", "Kbyte/sec"},
	{"in", 6, "kernel.all.intr", ""},
	{"cs", 6, "kernel.all.pswitch", ""},
}

// cpuColumns are the CPU time columns: each sums some of the CPU time
// counters, as a percentage of all of them.
var cpuColumns = []struct {
	head    string
	metrics []string
}{
	{"us", []string{"kernel.all.cpu.user", "kernel.all.cpu.nice"}},
	{"sy", []string{"kernel.all.cpu.sys", "kernel.all.cpu.intr"}},
	{"id", []string{"kernel.all.cpu.idle"}},
	{"wa", []string{"kernel.all.cpu.wait.total"}},
	{"st", []string{"kernel.all.cpu.steal"}},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, time.Sleep))
}

// options are the command line's.
type options struct {
	archive, host string
	interval      time.Duration
	samples       int
}

func parse(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("vmstat", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.archive, "a", "", "read the PCP `archive`")
	fs.StringVar(&o.host, "h", "", "read pmcd on `host`")
	fs.Bool("L", false, "read the embedded /proc collector (the default)")
	fs.DurationVar(&o.interval, "t", time.Second, "the `interval` between lines")
	fs.IntVar(&o.samples, "s", 0, "stop after `n` lines (0: at the end of an archive, or never)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	switch {
	case fs.NArg() > 0:
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case o.archive != "" && o.host != "":
		return o, errors.New("-a and -h cannot be used together")
	case o.interval <= 0:
		return o, errors.New("-t must be positive")
	}
	return o, nil
}

// open makes the context the options name, as every command of ours
// opens its sources (package pmapi/source).
func open(o options) (pmapi.Context, error) {
	spec := source.Embedded()
	switch {
	case o.archive != "":
		spec = source.Archive(o.archive)
	case o.host != "":
		spec = source.Host(o.host)
	}
	return (&source.Opener{}).Open(spec)
}

// table is the fetchgroup and the items filled in at each fetch.
type table struct {
	g     *fetchgroup.Group
	when  *fetchgroup.Timestamp
	items []*fetchgroup.Item
	cpu   [][]*fetchgroup.Item
	loc   *time.Location
}

// newTable registers every column's metrics with a fetchgroup over ctx,
// which it then owns.
func newTable(ctx pmapi.Context) (*table, error) {
	t := &table{g: fetchgroup.New(ctx), loc: pmapi.LoadTZ(ctx.Source().TZ)}
	t.when = t.g.ExtendTimestamp()
	for _, c := range columns {
		it, err := t.g.ExtendItem(c.metric, "", c.scale, pmapi.TypeDouble)
		if err != nil {
			t.g.Close()
			return nil, fmt.Errorf("%s: %w", c.metric, err)
		}
		t.items = append(t.items, it)
	}
	for _, c := range cpuColumns {
		var its []*fetchgroup.Item
		for _, m := range c.metrics {
			it, err := t.g.ExtendItem(m, "", "", pmapi.TypeDouble)
			if err != nil {
				t.g.Close()
				return nil, fmt.Errorf("%s: %w", m, err)
			}
			its = append(its, it)
		}
		t.cpu = append(t.cpu, its)
	}
	return t, nil
}

func (t *table) header(w io.Writer) {
	var b strings.Builder
	b.WriteString("    time")
	for _, c := range columns {
		fmt.Fprintf(&b, " %*s", c.width, c.head)
	}
	for _, c := range cpuColumns {
		fmt.Fprintf(&b, " %3s", c.head)
	}
	fmt.Fprintln(w, b.String())
}

// row prints the values of the last fetch.
func (t *table) row(w io.Writer) {
	var b strings.Builder
	b.WriteString(t.when.Time.Std().In(t.loc).Format("15:04:05"))
	for i, c := range columns {
		b.WriteString(" " + number(t.items[i], c.width))
	}
	// each CPU column as a share of all the CPU time counted
	sums := make([]float64, len(t.cpu))
	total, known := 0.0, true
	for i, its := range t.cpu {
		for _, it := range its {
			if it.Err != nil {
				known = false
			}
			sums[i] += it.Value.Float64()
		}
		total += sums[i]
	}
	for _, s := range sums {
		if !known || total <= 0 {
			fmt.Fprintf(&b, " %3s", "?")
			continue
		}
		fmt.Fprintf(&b, " %3.0f", 100*s/total)
	}
	fmt.Fprintln(w, b.String())
}

// number is an item's value rounded to a whole number, or "?".
func number(it *fetchgroup.Item, width int) string {
	v := it.Value.Float64()
	if it.Err != nil || math.IsNaN(v) {
		return fmt.Sprintf("%*s", width, "?")
	}
	return fmt.Sprintf("%*.0f", width, v)
}

func run(args []string, stdout, stderr io.Writer, sleep func(time.Duration)) int {
	o, err := parse(args, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "vmstat:", err)
		}
		return 2
	}
	ctx, err := open(o)
	if err != nil {
		fmt.Fprintln(stderr, "vmstat:", err)
		return 1
	}
	t, err := newTable(ctx)
	if err != nil {
		ctx.Close()
		fmt.Fprintln(stderr, "vmstat:", err)
		return 1
	}
	defer t.g.Close()
	live := true
	if s, ok := ctx.(pmapi.Seeker); ok {
		// an archive: interpolated values from its start, at once
		start, _ := s.Bounds()
		if err := t.g.SetMode(pmapi.ModeInterp, start, o.interval); err != nil {
			fmt.Fprintln(stderr, "vmstat:", err)
			return 1
		}
		live = false
	}
	// the first fetch only gives the counters' starting points
	if err := t.g.Fetch(); err != nil {
		fmt.Fprintln(stderr, "vmstat:", err)
		return 1
	}
	t.header(stdout)
	for n := 0; o.samples == 0 || n < o.samples; n++ {
		if live {
			sleep(o.interval)
		}
		err := t.g.Fetch()
		if errors.Is(err, pmapi.ErrEOL) {
			return 0
		}
		if err != nil {
			fmt.Fprintln(stderr, "vmstat:", err)
			return 1
		}
		t.row(stdout)
	}
	return 0
}
