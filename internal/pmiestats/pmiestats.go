// Package pmiestats owns pmie's statistics file, $PCP_TMP_DIR/pmie/PID:
// the memory-mapped record (pmie's pmiestats_t, version 1) that pmcd's
// pmcd PMDA reads for the pmcd.pmie metrics, that pmie_check reads (with
// pmiestatus) to find running pmie processes by their log files, and that
// pmieconf reads to list the pmie processes using a rules file.
//
// The record, in the machine's byte order, with Linux's MAXPATHLEN (4096)
// and MAXHOSTNAMELEN (64):
//
//	offset  size  field
//	     0  4097  config file (realpath, or "<stdin>"), NUL-terminated
//	  4097  4097  log file (realpath, or "<none>")
//	  8194    65  pmcd host ("(uninitialized)" until a host is reached)
//	  8260     4  float eval_expected
//	  8264     4  uint numrules
//	  8268     4  uint actions
//	  8272     4  uint eval_true
//	  8276     4  uint eval_false
//	  8280     4  uint eval_unknown
//	  8284     4  uint eval_actual
//	  8288     4  uint version (1)
//	  8292        size; pmcd ignores files of any other size or version
//
// The package writes and reads the record; what goes into it is the
// caller's business.
package pmiestats

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
)

// Offsets and sizes of pmiestats_t's fields.
const (
	pathLen = 4096 + 1
	hostLen = 64 + 1

	offConfig   = 0
	offLogfile  = offConfig + pathLen
	offHost     = offLogfile + pathLen
	offExpected = 8260 // offHost+hostLen rounded up to the float's alignment
	offNumRules = offExpected + 4
	offActions  = offNumRules + 4
	offTrue     = offActions + 4
	offFalse    = offTrue + 4
	offUnknown  = offFalse + 4
	offActual   = offUnknown + 4
	offVersion  = offActual + 4

	// Size is the record's size.
	Size = offVersion + 4
	// Version is the record's version, as pmcd expects it.
	Version = 1
)

// Subdir is the directory under $PCP_TMP_DIR holding the files.
const Subdir = "pmie"

// Record is the content of a statistics file.
type Record struct {
	Config, Logfile, Host string
	Expected              float32
	NumRules, Actions     uint32
	True, False, Unknown  uint32
	Actual                uint32
	Version               uint32
}

// Values are the counts kept current in a statistics file.
type Values struct {
	Expected                   float32
	NumRules, Actions          uint32
	True, False, Unknown, Eval uint32
}

// File is a statistics file mapped into memory; its methods may be
// called from any goroutine.
type File struct {
	path string
	mu   sync.Mutex
	mem  []byte
}

// Create makes the statistics file of process pid in dir (made if need
// be, with mode 0777 less the umask, as pmie makes it), mapped into
// memory, with logfile and the host "(uninitialized)" filled in. The file
// is 0644.
//
// The file is made whole (its size and version set) under a name that is
// no process ID, then renamed to its own: pmcd reads the directory again
// only when its modification time changes, so a file it found half made
// (empty, or of version 0, as pmie's own can be for a moment) would stay
// out of pmcd.pmie until another pmie started or stopped.
func Create(dir string, pid int, logfile string) (*File, error) {
	if err := os.Mkdir(dir, 0o777); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("cannot create stats file dir %s: %w", dir, err)
	}
	path := filepath.Join(dir, strconv.Itoa(pid))
	tmp := filepath.Join(dir, "."+strconv.Itoa(pid)+".new")
	os.Remove(tmp)
	fd, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	defer fd.Close()
	mem, err := mapNew(fd, path)
	if err != nil {
		os.Remove(tmp)
		return nil, err
	}
	putString(mem[offLogfile:offLogfile+pathLen], logfile)
	putString(mem[offHost:offHost+hostLen], "(uninitialized)")
	binary.NativeEndian.PutUint32(mem[offVersion:], Version)
	if err := os.Rename(tmp, path); err != nil {
		syscall.Munmap(mem)
		os.Remove(tmp)
		return nil, err
	}
	return &File{path: path, mem: mem}, nil
}

// mapNew sizes the new file fd (to be named path) and maps it into
// memory.
func mapNew(fd *os.File, path string) ([]byte, error) {
	if err := fd.Truncate(Size); err != nil {
		return nil, err
	}
	mem, err := syscall.Mmap(int(fd.Fd()), 0, Size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("memory map failed for stats file %s: %w", path, err)
	}
	return mem, nil
}

// Path is the file's name.
func (f *File) Path() string { return f.path }

// putString copies s into field, cut to leave room for the NUL at the end.
func putString(field []byte, s string) {
	n := copy(field[:len(field)-1], s)
	clear(field[n:])
}

// SetConfig records the rules file.
func (f *File) SetConfig(path string) { f.setString(offConfig, pathLen, path) }

// SetHost records the pmcd host last reached.
func (f *File) SetHost(host string) { f.setString(offHost, hostLen, host) }

func (f *File) setString(off, n int, s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.mem != nil {
		putString(f.mem[off:off+n], s)
	}
}

// Update writes the counts.
func (f *File) Update(v Values) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.mem
	if m == nil {
		return
	}
	ne := binary.NativeEndian
	ne.PutUint32(m[offExpected:], math.Float32bits(v.Expected))
	ne.PutUint32(m[offNumRules:], v.NumRules)
	ne.PutUint32(m[offActions:], v.Actions)
	ne.PutUint32(m[offTrue:], v.True)
	ne.PutUint32(m[offFalse:], v.False)
	ne.PutUint32(m[offUnknown:], v.Unknown)
	ne.PutUint32(m[offActual:], v.Eval)
}

// Close unmaps the file and removes it, as pmie does at exit. Later
// calls do nothing.
func (f *File) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.mem == nil {
		return
	}
	syscall.Munmap(f.mem)
	f.mem = nil
	os.Remove(f.path)
}

// Decode reads a record; b must be Size bytes.
func Decode(b []byte) (Record, error) {
	if len(b) != Size {
		return Record{}, fmt.Errorf("pmie stats record of %d bytes, want %d", len(b), Size)
	}
	ne := binary.NativeEndian
	u := func(off int) uint32 { return ne.Uint32(b[off:]) }
	return Record{
		Config: cString(b[offConfig : offConfig+pathLen]), Logfile: cString(b[offLogfile : offLogfile+pathLen]),
		Host: cString(b[offHost : offHost+hostLen]), Expected: math.Float32frombits(u(offExpected)),
		NumRules: u(offNumRules), Actions: u(offActions), True: u(offTrue), False: u(offFalse),
		Unknown: u(offUnknown), Actual: u(offActual), Version: u(offVersion),
	}, nil
}

// cString is the text of b up to its first NUL.
func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

// Running lists the statistics files in dir of processes still running,
// as pmcd does: names that are process IDs of live processes, of the
// right size and version. It returns them by process ID.
func Running(dir string) (map[int]Record, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := map[int]Record{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 || syscall.Kill(pid, 0) == syscall.ESRCH {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		r, err := Decode(b)
		if err != nil || r.Version != Version {
			continue
		}
		out[pid] = r
	}
	return out, nil
}
