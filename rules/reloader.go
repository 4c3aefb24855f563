package rules

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// LoadFunc reads and checks every file of the configuration (rules,
// derived metrics, the daemon's file) and returns it ready to run, or an
// error naming every problem found (file:line:col where there is one).
// It must not change anything that is running.
type LoadFunc func() (*Candidate, error)

// Reloader reloads an Engine's configuration as a transaction: every file
// is read and checked first, and on any error the whole running
// configuration stays in force; only a configuration checked in full
// replaces it, in one step between two evaluations (Engine.Reload).
// Success and failure are logged and counted. Reloads come from a
// Watcher, signals and the HTTP endpoint alike; one runs at a time.
type Reloader struct {
	eng  Reloadable
	load LoadFunc
	log  NotifyFunc
	now  NowFunc

	mu    sync.Mutex // one reload at a time
	files []string   // of the configuration in force
	sum   [sha256.Size]byte

	// Watch, if set, is told the files of each configuration put in
	// force, so it can watch them.
	Watch func(files []string)

	ok, failed atomic.Int64
	last       atomic.Pointer[ReloadStatus]
}

// ReloadStatus is the outcome of the last reload.
type ReloadStatus struct {
	Time   time.Time
	Reason string
	Err    error // nil when it succeeded
}

// Reloadable is what a Reloader reloads: an Engine, or many.
type Reloadable interface {
	// Reload puts c in force from the next evaluation on (see
	// Engine.Reload).
	Reload(c *Candidate) <-chan Switched
}

// NewReloader reloads eng's configuration with load; files are those of
// the configuration running now. Messages go to log.
func NewReloader(eng Reloadable, load LoadFunc, files []string, log NotifyFunc, now NowFunc) *Reloader {
	if now == nil {
		now = time.Now
	}
	r := &Reloader{eng: eng, load: load, log: log, now: now, files: files}
	r.sum, _ = checksum(files)
	return r
}

// Counts gives the number of reloads that succeeded and that failed.
func (r *Reloader) Counts() (ok, failed int64) { return r.ok.Load(), r.failed.Load() }

// Last is the outcome of the last reload, or nil if there has been none.
func (r *Reloader) Last() *ReloadStatus { return r.last.Load() }

// Files lists the files of the configuration in force.
func (r *Reloader) Files() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.files...)
}

// errUnchanged is a file change after which no file has changed.
var errUnchanged = errors.New("no file has changed")

// Changed reloads after a file of the configuration has changed, unless
// the contents of its files are as they were (editors touch files, and
// create and remove others beside them).
func (r *Reloader) Changed(reason string) error {
	err := r.reload(reason, true)
	if errors.Is(err, errUnchanged) {
		return nil
	}
	return err
}

// Reload reloads the configuration, saying why (a signal, a request), and
// returns once the new one is in force (nil) or has been refused (the
// error, which has been logged).
func (r *Reloader) Reload(reason string) error { return r.reload(reason, false) }

func (r *Reloader) reload(reason string, onlyChanged bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	// The files are summed before they are read: an edit saved while
	// they are read then differs from the sum kept, and its change
	// reloads again. (Summed after, it would be taken as loaded.)
	before, sumErr := checksum(r.files)
	if onlyChanged && sumErr == nil && before == r.sum {
		return errUnchanged
	}
	c, err := r.safeLoad()
	if err != nil {
		r.failed.Add(1)
		r.last.Store(&ReloadStatus{Time: r.now(), Reason: reason, Err: err})
		r.notify(Error, fmt.Sprintf("reload (%s) failed; the running configuration is kept:\n%v", reason, err))
		return err
	}
	sum := before
	if sumErr != nil || !slices.Equal(c.Files, r.files) {
		// the configuration's files are others now (an include added
		// or removed): those are summed as they are
		sum, _ = checksum(c.Files)
	}
	res, ok := <-r.eng.Reload(c)
	if !ok {
		if c.Discard != nil {
			c.Discard()
		}
		err := errors.New("pmie is stopping")
		r.last.Store(&ReloadStatus{Time: r.now(), Reason: reason, Err: err})
		return err
	}
	r.files, r.sum = c.Files, sum
	r.ok.Add(1)
	r.last.Store(&ReloadStatus{Time: r.now(), Reason: reason})
	r.notify(Info, fmt.Sprintf("reload (%s): configuration reloaded: %d rules (%d kept, %d new, %d removed)",
		reason, res.Kept+res.Added, res.Kept, res.Added, res.Removed))
	if r.Watch != nil {
		r.Watch(c.Files)
	}
	return nil
}

// safeLoad runs the load function, turning a panic in it into an error:
// a bad file must never stop the rules that are running.
func (r *Reloader) safeLoad() (c *Candidate, err error) {
	defer func() {
		if p := recover(); p != nil {
			c, err = nil, fmt.Errorf("internal error while loading: %v", p)
		}
	}()
	return r.load()
}

func (r *Reloader) notify(level Level, msg string) {
	if r.log != nil {
		r.log(level, msg)
	}
}

// checksum sums the contents of files, in order.
func checksum(files []string) ([sha256.Size]byte, error) {
	h := sha256.New()
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return [sha256.Size]byte{}, err
		}
		io.WriteString(h, name)
		h.Write([]byte{0})
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return [sha256.Size]byte{}, err
		}
		h.Write([]byte{0})
	}
	var sum [sha256.Size]byte
	copy(sum[:], h.Sum(nil))
	return sum, nil
}
