package rules

import (
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// DefaultDebounce is how long a Watcher waits after the last change it
// sees before it reports: editors save in several steps (write a
// temporary file, rename it over the old one, change its mode).
const DefaultDebounce = 250 * time.Millisecond

// Watcher watches files for changes and reports them, debounced. It
// watches the directories that hold the files, not the files, so that a
// file replaced by renaming another over it (as editors save) is still
// seen, as is one removed and created again.
type Watcher struct {
	w        *fsnotify.Watcher
	debounce time.Duration
	changed  func(reason string)
	errs     func(err error)

	mu    sync.Mutex
	files map[string]bool // absolute, cleaned
	dirs  map[string]bool

	done chan struct{}
	wg   sync.WaitGroup
}

// Watch starts watching files; changed is called (from the Watcher's own
// goroutine, never twice at once) once they have stopped changing for
// debounce, naming a file that changed; errs is told of problems
// watching (it may be nil).
func Watch(files []string, debounce time.Duration, changed func(reason string), errs func(err error)) (*Watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	if debounce <= 0 {
		debounce = DefaultDebounce
	}
	if errs == nil {
		errs = func(error) {}
	}
	w := &Watcher{w: fw, debounce: debounce, changed: changed, errs: errs,
		files: map[string]bool{}, dirs: map[string]bool{}, done: make(chan struct{})}
	if err := w.Set(files); err != nil {
		fw.Close()
		return nil, err
	}
	w.wg.Add(1)
	go w.run()
	return w, nil
}

// Set changes the files watched.
func (w *Watcher) Set(files []string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	want := map[string]bool{}
	dirs := map[string]bool{}
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return err
		}
		want[abs] = true
		dirs[filepath.Dir(abs)] = true
	}
	for d := range dirs {
		if !w.dirs[d] {
			if err := w.w.Add(d); err != nil {
				return err
			}
		}
	}
	for d := range w.dirs {
		if !dirs[d] {
			w.w.Remove(d)
		}
	}
	w.files, w.dirs = want, dirs
	return nil
}

// Close stops watching.
func (w *Watcher) Close() error {
	close(w.done)
	err := w.w.Close()
	w.wg.Wait()
	return err
}

// run waits for changes to the files and reports them once they settle.
func (w *Watcher) run() {
	defer w.wg.Done()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	reason := ""
	for {
		select {
		case <-w.done:
			return
		case ev, ok := <-w.w.Events:
			if !ok {
				return
			}
			if ev.Op == fsnotify.Chmod || !w.watched(ev.Name) {
				continue
			}
			if reason == "" {
				reason = "changed: " + ev.Name
			}
			timer.Reset(w.debounce)
		case err, ok := <-w.w.Errors:
			if !ok {
				return
			}
			w.errs(err)
		case <-timer.C:
			r := reason
			reason = ""
			w.changed(r)
		}
	}
}

// watched reports whether name is one of the files watched.
func (w *Watcher) watched(name string) bool {
	abs, err := filepath.Abs(name)
	if err != nil {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.files[abs]
}
