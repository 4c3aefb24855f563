package pmiestats

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestFile writes a statistics file, reads it back as pmcd would, and
// checks that closing removes it.
func TestFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), Subdir)
	pid := os.Getpid()
	f, err := Create(dir, pid, "/var/log/pcp/pmie/pmie.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if fi, err := os.Stat(f.Path()); err != nil || fi.Size() != Size || fi.Mode().Perm() != 0o644 {
		t.Fatalf("stats file %v: %v", fi, err)
	}
	f.SetConfig("/etc/pcp/pmie/config.default")
	f.SetHost(strings.Repeat("h", 100)) // longer than MAXHOSTNAMELEN
	f.Update(Values{Expected: 0.6, NumRules: 7, Actions: 38, True: 46, False: 35, Unknown: 6, Eval: 78})
	got, err := Running(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := Record{Config: "/etc/pcp/pmie/config.default", Logfile: "/var/log/pcp/pmie/pmie.log",
		Host: strings.Repeat("h", 64), Expected: 0.6, NumRules: 7, Actions: 38, True: 46, False: 35,
		Unknown: 6, Actual: 78, Version: 1}
	if got[pid] != want {
		t.Errorf("read back\n%+v\nwant\n%+v", got[pid], want)
	}
	f.Close()
	if _, err := os.Stat(f.Path()); !os.IsNotExist(err) {
		t.Errorf("stats file left behind: %v", err)
	}
	f.Update(Values{}) // after Close: nothing happens
}

// TestRunning checks that only files of live processes, of the right size
// and version, are taken.
func TestRunning(t *testing.T) {
	dir := t.TempDir()
	rec := make([]byte, Size)
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	me := os.Getpid()
	f, err := Create(dir, me, "<none>")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	write("999999999", rec)  // no such process
	write("1", rec[:Size-1]) // wrong size
	write("notapid", rec)
	got, err := Running(dir)
	if err != nil || len(got) != 1 || got[me].Logfile != "<none>" || got[me].Host != "(uninitialized)" {
		t.Errorf("got %+v, %v", got, err)
	}
}

// TestLayout checks the offsets against the C layout: the float after the
// strings is 4-byte aligned, the record 8292 bytes.
func TestLayout(t *testing.T) {
	if offHost+hostLen != 8259 || offExpected != 8260 || Size != 8292 {
		t.Errorf("host ends at %d, expected at %d, size %d", offHost+hostLen, offExpected, Size)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(make([]byte, Size))
	f.Fuzz(func(t *testing.T, b []byte) {
		if r, err := Decode(b); err == nil && (len(r.Config) > pathLen || len(r.Logfile) > pathLen || len(r.Host) > hostLen) {
			t.Errorf("field overruns: %+v", r)
		}
	})
}

// TestCreateAppearsWhole checks that a statistics file appears under its
// name only once it is whole (its size and version right), while another
// goroutine looks at the directory as pmcd does. pmcd reads the directory
// again only when its modification time changes: a file it found half
// made would stay out of pmcd.pmie until another pmie started or stopped.
func TestCreateAppearsWhole(t *testing.T) {
	dir := t.TempDir()
	stop := make(chan struct{})
	seen := make(chan string, 1)
	scans := 0
	go func() {
		defer close(seen)
		for {
			select {
			case <-stop:
				return
			default:
			}
			scans++
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if _, err := strconv.Atoi(e.Name()); err != nil {
					continue
				}
				b, err := os.ReadFile(filepath.Join(dir, e.Name()))
				if err != nil {
					continue // removed meanwhile
				}
				if r, err := Decode(b); err != nil || r.Version != Version {
					seen <- fmt.Sprintf("%s: %d bytes, %+v", e.Name(), len(b), r)
					return
				}
			}
		}
	}()
	for i := range 500 {
		f, err := Create(dir, 100000+i, "<none>")
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	close(stop)
	if s, ok := <-seen; ok {
		t.Errorf("a statistics file was seen before it was whole: %s", s)
	}
	t.Logf("%d scans of the directory", scans)
}
