package archive

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopcp/pmie/pmapi"
	"github.com/ulikunitz/xz"
)

// smallBuffers makes the buffers of sources opened from now on tiny, so
// that tests of small archives refill, slide and restart them; it
// returns a function that puts them back.
func smallBuffers(file, limit, window int) func() {
	f, m, b, l, w := fileWindow, maxWindow, bigWindow, memLimit, zWindow
	fileWindow, maxWindow, bigWindow, memLimit, zWindow = file, 4*file, 4*file, limit, window
	return func() { fileWindow, maxWindow, bigWindow, memLimit, zWindow = f, m, b, l, w }
}

// TestSources reads a volume's bytes at random places, forwards and
// backwards, from each kind of source with buffers of several sizes,
// and compares them with the file's contents.
func TestSources(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(archivesDir, "procs.0"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	plain := filepath.Join(dir, "v.0")
	write := func(name string, w func(io.Writer) io.WriteCloser) string {
		var b bytes.Buffer
		zw := w(&b)
		zw.Write(data)
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	if err := os.WriteFile(plain, data, 0o644); err != nil {
		t.Fatal(err)
	}
	gz := write("v.0.gz", func(w io.Writer) io.WriteCloser { return gzip.NewWriter(w) })
	xzPath := write("v.0.xz", func(w io.Writer) io.WriteCloser {
		zw, err := xz.NewWriter(w)
		if err != nil {
			t.Fatal(err)
		}
		return zw
	})
	for _, sizes := range [][3]int{{64 << 10, 8 << 20, 1 << 20}, {100, 1000, 300}, {7, 50, 20}} {
		restore := smallBuffers(sizes[0], sizes[1], sizes[2])
		for _, path := range []string{plain, gz, xzPath} {
			var src source
			var err error
			if _, decomp := compressor(path); decomp != nil {
				src, err = openZSource(path, decomp)
			} else {
				src, err = openFileSource(path)
			}
			if err != nil {
				t.Fatal(err)
			}
			checkSource(t, path, src, data)
			src.close()
		}
		checkSource(t, "memory", memSource(data), data)
		restore()
	}
}

// checkSource reads src at random and in runs forwards and backwards,
// comparing what it gives with data.
func checkSource(t *testing.T, name string, src source, data []byte) {
	t.Helper()
	rng := rand.New(rand.NewSource(1))
	n := int64(len(data))
	read := func(off int64, l int) {
		t.Helper()
		p := make([]byte, l)
		k, err := src.readAt(p, off)
		want := min(max(n-off, 0), int64(l))
		if int64(k) != want || !bytes.Equal(p[:k], data[off:off+int64(k)]) {
			t.Fatalf("%s: readAt(%d bytes at %d) = %d bytes (want %d), %v", name, l, off, k, want, err)
		}
		if (k < l) != (err == io.EOF) {
			t.Fatalf("%s: readAt(%d bytes at %d) = %d bytes, err %v", name, l, off, k, err)
		}
	}
	for range 300 {
		read(rng.Int63n(n+10), rng.Intn(500))
	}
	for off := int64(0); off < n; off += 37 {
		read(off, 40)
	}
	for off := n - 30; off >= 0; off -= 29 {
		read(off, 30)
	}
	if sz, err := src.size(); sz != n || err != nil {
		t.Fatalf("%s: size %d, %v; want %d", name, sz, err, n)
	}
}

// TestGoldenSmallBuffers runs the golden tests again with tiny source
// buffers, so that every record is read through refilled windows, and
// compressed volumes are decompressed again when read backwards.
func TestGoldenSmallBuffers(t *testing.T) {
	restore := smallBuffers(200, 300, 150)
	defer restore()
	clear(archiveCache)
	defer clear(archiveCache)
	TestGoldenFetchdump(t)
	TestGoldenPmval(t)
}

// openFiles returns the process's open file descriptors on files of the
// set archives, with the files they are open on.
func openFiles(t *testing.T) map[string]string {
	t.Helper()
	dir := filepath.Join(archivesDir, "set")
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{}
	for _, f := range files {
		path, err := filepath.EvalSymlinks(filepath.Join(dir, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if path, err = filepath.Abs(path); err != nil {
			t.Fatal(err)
		}
		set[path] = true
	}
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd:", err)
	}
	fds := map[string]string{}
	for _, e := range ents {
		fd := filepath.Join("/proc/self/fd", e.Name())
		if to, err := os.Readlink(fd); err == nil && set[to] {
			fds[fd] = to
		}
	}
	return fds
}

// newFiles counts the file descriptors of openFiles open now that were
// not in before. (Files other tests left open may be closed meanwhile,
// by the garbage collector, and are not counted.)
func newFiles(t *testing.T, before map[string]string) int {
	t.Helper()
	n := 0
	for fd, to := range openFiles(t) {
		if before[fd] != to {
			n++
		}
	}
	return n
}

// TestFilesClosed checks that a context of several archives keeps the
// files of at most one open while it reads them, and none once closed.
func TestFilesClosed(t *testing.T) {
	before := openFiles(t)
	c, err := Open(filepath.Join(archivesDir, "set"))
	if err != nil {
		t.Fatal(err)
	}
	if n := newFiles(t, before); n != 0 {
		t.Errorf("%d files open after Open of two archives, want 0", n)
	}
	var ids []pmapi.PMID
	for id := range c.meta.descs {
		ids = append(ids, id)
	}
	start, end := c.Bounds()
	var r pmapi.Result
	most := 0
	for _, m := range []struct {
		at    pmapi.Time
		delta time.Duration
	}{{start, 500 * time.Millisecond}, {end, -700 * time.Millisecond}} {
		c.SetMode(pmapi.ModeInterp, m.at, m.delta)
		for c.Fetch(ids, &r) != pmapi.ErrEOL {
			most = max(most, newFiles(t, before))
		}
	}
	t.Logf("at most %d files open while reading", most)
	if most < 1 || most > maxOpen {
		t.Errorf("at most %d files open while reading, want 1 to %d", most, maxOpen)
	}
	c.Close()
	if n := newFiles(t, before); n != 0 {
		t.Errorf("%d files open after Close, want 0", n)
	}
}
