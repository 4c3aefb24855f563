//go:build linux

package local

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

// fixtureRoot is a fake /proc and /sys tree: real files from a Linux 6.18
// VM, edited to have an offline CPU, partitions and devices that are not
// disks, odd mounts and wrapping counters.
const fixtureRoot = "testdata/root"

var fixtureTime = time.Date(2026, 5, 9, 12, 0, 0, 0, time.UTC)

// fixtureStatfs stands in for statfs(2) on the fixture's mounts.
var fixtureStatfs = map[string]syscall.Statfs_t{
	"/":     {Bsize: 4096, Blocks: 66053021, Bfree: 63034827, Bavail: 20857047, Files: 16777216, Ffree: 16370533},
	"/data": {Bsize: 1024, Blocks: 1000, Bfree: 250, Bavail: 200, Files: 100, Ffree: 40},
	"/home": {Bsize: 4096, Blocks: 1 << 33, Bfree: 0, Bavail: 0, Files: 5000000000, Ffree: 1},
}

func openFixture(t testing.TB) *Context {
	t.Helper()
	root, err := filepath.Abs(fixtureRoot)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Open(Options{
		Root:     root,
		Hostname: "fixture",
		Hertz:    100,
		PageSize: 4096,
		Now:      func() time.Time { return fixtureTime },
		Statfs: func(path string, st *syscall.Statfs_t) error {
			s, ok := fixtureStatfs[strings.TrimPrefix(path, root)]
			if !ok {
				return syscall.ENOENT
			}
			*st = s
			return nil
		},
		Uname: func(u *syscall.Utsname) error {
			setUts(&u.Sysname, "Linux")
			setUts(&u.Nodename, "fixture")
			setUts(&u.Release, "6.1.0-test")
			setUts(&u.Version, "#1 SMP")
			setUts(&u.Machine, "x86_64")
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func setUts[T int8 | uint8](f *[65]T, s string) {
	for i := range f {
		f[i] = 0
	}
	for i := 0; i < len(s); i++ {
		f[i] = T(s[i])
	}
}

// fixtureWant is what each metric must give for the fixture, worked out
// by hand from the files under testdata/root (clock ticks at 100 Hz are
// tens of milliseconds; sectors are half-Kbytes). Values are "inst:value"
// for metrics with instances, "-" means no values, and "err:CODE" an
// error.
const fixtureWant = `
kernel.all.load 1:0.44 5:0.48 15:0.24
kernel.all.intr 1527066
kernel.all.pswitch 4865241
kernel.all.sysfork 20186
kernel.all.running 2
kernel.all.blocked 1
kernel.all.boottime 1795270429
kernel.all.hz 100
kernel.all.uptime 740.04
kernel.all.idletime 1389.17
kernel.all.lastpid 20190
kernel.all.runnable 3
kernel.all.nprocs 115
kernel.all.cpu.user 127430
kernel.all.cpu.nice 30
kernel.all.cpu.sys 57920
kernel.all.cpu.idle 1281800
kernel.all.cpu.intr 690
kernel.all.cpu.steal 350
kernel.all.cpu.guest 70
kernel.all.cpu.vuser 127360
kernel.all.cpu.guest_nice 20
kernel.all.cpu.vnice 10
kernel.all.cpu.wait.total 4110
kernel.all.cpu.irq.soft 690
kernel.all.cpu.irq.hard 0
kernel.percpu.cpu.user 0:55310 1:72110 3:10
kernel.percpu.cpu.nice 0:20 1:0 3:10
kernel.percpu.cpu.sys 0:25400 1:32520 3:0
kernel.percpu.cpu.idle 0:654120 1:627680 3:10000
kernel.percpu.cpu.intr 0:150 1:530 3:10
kernel.percpu.cpu.steal 0:170 1:180 3:0
kernel.percpu.cpu.guest 0:30 1:40 3:0
kernel.percpu.cpu.vuser 0:55280 1:72070 3:10
kernel.percpu.cpu.guest_nice 0:10 1:0 3:0
kernel.percpu.cpu.vnice 0:10 1:0 3:10
kernel.percpu.cpu.wait.total 0:420 1:3680 3:10
kernel.percpu.cpu.irq.soft 0:150 1:530 3:10
kernel.percpu.cpu.irq.hard 0:0 1:0 3:0
kernel.uname.release "6.1.0-test"
kernel.uname.version "#1 SMP"
kernel.uname.sysname "Linux"
kernel.uname.machine "x86_64"
kernel.uname.nodename "fixture"
hinv.physmem 24105
hinv.pagesize 4096
hinv.ncpu 3
hinv.ndisk 3
hinv.nfilesys 4
hinv.ninterface 4
hinv.hugepagesize 2097152
mem.physmem 24684084
mem.freemem 24069492
mem.util.used 614592
mem.util.free 24069492
mem.util.shared -
mem.util.bufmem 9208
mem.util.cached 383012
mem.util.other 222372
mem.util.swapCached 0
mem.util.active 255644
mem.util.inactive 147204
mem.util.highTotal -
mem.util.highFree -
mem.util.lowTotal -
mem.util.lowFree -
mem.util.swapTotal 2097148
mem.util.swapFree 1048576
mem.util.dirty 1560
mem.util.writeback 8
mem.util.mapped 16796
mem.util.slab 99084
mem.util.committed_AS 87308
mem.util.pageTables 3000
mem.util.reverseMaps -
mem.util.cache_clean 381444
mem.util.anonpages 31688
mem.util.commitLimit 12342040
mem.util.bounce 0
mem.util.NFS_Unstable 0
mem.util.slabReclaimable 74724
mem.util.slabUnreclaimable 24360
mem.util.active_anon 1588
mem.util.inactive_anon 17916
mem.util.active_file 254056
mem.util.inactive_file 129288
mem.util.unevictable 21036
mem.util.mlocked 20080
mem.util.shmem 8872
mem.util.kernelStack 1688
mem.util.hugepagesTotal 4
mem.util.hugepagesFree 2
mem.util.hugepagesRsvd 0
mem.util.hugepagesSurp 0
mem.util.directMap4k 32768
mem.util.directMap2M 2064384
mem.util.vmallocTotal 34359738367
mem.util.vmallocUsed 14540
mem.util.vmallocChunk 0
mem.util.mmap_copy -
mem.util.quicklists -
mem.util.corrupthardware -
mem.util.anonhugepages 0
mem.util.directMap1G 25165824
mem.util.available 24283596
mem.util.hugepagesTotalBytes 8388608
mem.util.hugepagesFreeBytes 4194304
mem.util.hugepagesRsvdBytes 0
mem.util.hugepagesSurpBytes 0
swap.pagesin 17
swap.pagesout 5
swap.free 1073741824
swap.length 2147479552
swap.used 1073737728
disk.dev.read 0:61351 1:1000 2:300
disk.dev.write 0:9829 1:2000 2:400
disk.dev.total 0:71180 1:3000 2:700
disk.dev.blkread 0:2500314 1:80001 2:6000
disk.dev.blkwrite 0:1539288 1:160003 2:8000
disk.dev.blktotal 0:4039602 1:240004 2:14000
disk.dev.read_bytes 0:1250157 1:40000 2:3000
disk.dev.write_bytes 0:769644 1:80001 2:4000
disk.dev.total_bytes 0:2019801 1:120002 2:7000
disk.dev.read_merge 0:7556 1:10 2:3
disk.dev.write_merge 0:14287 1:20 2:4
disk.dev.avactive 0:6652 1:900 2:250
disk.dev.read_rawactive 0:56764 1:1 2:120
disk.dev.write_rawactive 0:5230 1:700 2:160
disk.dev.total_rawactive 0:61994 1:701 2:280
disk.dev.aveq 0:62597 1:1600 2:280
disk.dev.discard 0:6602 1:5 2:0
disk.dev.blkdiscard 0:390216 1:40 2:0
disk.dev.discard_bytes 0:195108 1:20 2:0
disk.dev.discard_merge 0:27 1:1 2:0
disk.dev.discard_rawactive 0:543 1:7 2:0
disk.dev.flush 0:1189 1:9 2:0
disk.dev.flush_rawactive 0:59 1:2 2:0
disk.dev.inflight 0:0 1:3 2:1
disk.all.read 62651
disk.all.write 12229
disk.all.total 74880
disk.all.blkread 2586315
disk.all.blkwrite 1707291
disk.all.blktotal 4293606
disk.all.read_bytes 1293157
disk.all.write_bytes 853645
disk.all.total_bytes 2146803
disk.all.read_merge 7569
disk.all.write_merge 14311
disk.all.avactive 7802
disk.all.read_rawactive 56885
disk.all.write_rawactive 6090
disk.all.total_rawactive 62975
disk.all.aveq 64477
disk.all.discard 6607
disk.all.blkdiscard 390256
disk.all.discard_bytes 195128
disk.all.discard_merge 28
disk.all.discard_rawactive 550
disk.all.flush 1198
disk.all.flush_rawactive 61
disk.all.inflight 4
network.interface.collisions 0:0 1:0 2:11 3:0
network.interface.mtu 0:65536 1:1500 2:1400 3:1500
network.interface.speed 2:5.12e+08 3:1192.0929
network.interface.baudrate 2:536870911875000 3:1250000000
network.interface.up 0:1 1:0 2:1 3:1
network.interface.running 0:1 1:0 2:1 3:0
network.interface.in.bytes 0:775225 1:0 2:34248653 3:18446744073709551615
network.interface.in.packets 0:7064 1:0 2:1350 3:1
network.interface.in.errors 0:0 1:0 2:2 3:0
network.interface.in.drops 0:0 1:0 2:3 3:0
network.interface.in.fifo 0:0 1:0 2:4 3:0
network.interface.in.frame 0:0 1:0 2:5 3:0
network.interface.in.compressed 0:0 1:0 2:6 3:0
network.interface.in.mcasts 0:0 1:0 2:7 3:0
network.interface.out.bytes 0:775225 1:0 2:109250 3:5
network.interface.out.packets 0:7064 1:0 2:1001 3:1
network.interface.out.errors 0:0 1:0 2:8 3:0
network.interface.out.drops 0:0 1:0 2:9 3:0
network.interface.out.fifo 0:0 1:0 2:10 3:0
network.interface.out.carrier 0:0 1:0 2:12 3:0
network.interface.out.compressed 0:0 1:0 2:13 3:0
network.interface.total.bytes 0:1550450 1:0 2:34357903 3:4
network.interface.total.packets 0:14128 1:0 2:2351 3:2
network.interface.total.errors 0:0 1:0 2:10 3:0
network.interface.total.drops 0:0 1:0 2:12 3:0
network.interface.total.mcasts 0:0 1:0 2:7 3:0
filesys.capacity 0:264212084 1:1000 2:34359738368
filesys.used 0:12072776 1:750 2:34359738368
filesys.free 0:252139308 1:250 2:0
filesys.maxfiles 0:16777216 1:100 2:705032704
filesys.usedfiles 0:406683 1:60 2:705032703
filesys.freefiles 0:16370533 1:40 2:1
filesys.mountdir 0:"/" 1:"/data" 2:"/home"
filesys.full 0:12.641522655205868 1:78.94736842105263 2:100
filesys.blocksize 0:4096 1:1024 2:4096
filesys.avail 0:83428188 1:200 2:0
filesys.readonly 0:0 1:1 2:0
proc.nprocs 4
`

// format renders a value set as fixtureWant writes it.
func format(vs *pmapi.ValueSet, indom pmapi.InDom) string {
	if vs.Err != nil {
		return "err:" + pmapi.Code(vs.Err).Symbol()
	}
	if len(vs.Values) == 0 {
		return "-"
	}
	var parts []string
	for _, v := range vs.Values {
		var s string
		switch a := v.Atom; a.Type {
		case pmapi.TypeU32, pmapi.TypeU64:
			s = strconv.FormatUint(a.Uint64(), 10)
		case pmapi.Type32, pmapi.Type64:
			s = strconv.FormatInt(a.Int64(), 10)
		case pmapi.TypeFloat:
			s = strconv.FormatFloat(float64(a.Float32()), 'g', -1, 32)
		case pmapi.TypeDouble:
			s = strconv.FormatFloat(a.Float64(), 'g', -1, 64)
		case pmapi.TypeString:
			s = strconv.Quote(a.Str())
		}
		if indom != pmapi.InDomNull {
			s = strconv.Itoa(int(v.Inst)) + ":" + s
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func TestFixtureValues(t *testing.T) {
	c := openFixture(t)
	want := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(fixtureWant), "\n") {
		name, v, _ := strings.Cut(line, " ")
		want[name] = v
	}
	if len(want) != len(space().metrics) {
		t.Errorf("fixtureWant has %d metrics, the namespace %d", len(want), len(space().metrics))
	}
	ids := make([]pmapi.PMID, len(space().metrics))
	for i := range space().metrics {
		ids[i] = space().metrics[i].pmid
	}
	var r pmapi.Result
	if err := c.Fetch(ids, &r); err != nil {
		t.Fatal(err)
	}
	if r.Time != pmapi.FromStd(fixtureTime) {
		t.Errorf("fetch time %v, want %v", r.Time, fixtureTime)
	}
	for i := range space().metrics {
		m := &space().metrics[i]
		vs := &r.Sets[i]
		if vs.PMID != m.pmid {
			t.Errorf("%s: value set for %v", m.name, vs.PMID)
		}
		for _, v := range vs.Values {
			if v.Atom.Type != m.typ {
				t.Errorf("%s: value of type %v, descriptor says %v", m.name, v.Atom.Type, m.typ)
			}
			if (m.indom == pmapi.InDomNull) != (v.Inst == pmapi.InNull) {
				t.Errorf("%s: instance %d with indom %v", m.name, v.Inst, m.indom)
			}
		}
		if got := format(vs, m.indom); got != want[m.name] {
			t.Errorf("%s = %s\n\twant %s", m.name, got, want[m.name])
		}
	}
}

func TestFixtureInstances(t *testing.T) {
	c := openFixture(t)
	tests := []struct {
		indom pmapi.InDom
		want  string
	}{
		{pmapi.NewInDom(60, 0), `0:"cpu0" 1:"cpu1" 3:"cpu3"`},
		{pmapi.NewInDom(60, 1), `0:"vda" 1:"nvme0n1" 2:"sda"`},
		{pmapi.NewInDom(60, 2), `1:"1 minute" 5:"5 minute" 15:"15 minute"`},
		{pmapi.NewInDom(60, 3), `0:"lo" 1:"ifb0" 2:"eth0" 3:"docker0"`},
		{pmapi.NewInDom(60, 5), `0:"/dev/vda" 1:"/dev/nvme0n1p1" 2:"/dev/mapper/vg-home" 3:"/dev/sr0"`},
	}
	for _, tt := range tests {
		insts, err := c.InDom(tt.indom)
		if err != nil {
			t.Errorf("InDom(%v): %v", tt.indom, err)
			continue
		}
		var parts []string
		for _, in := range insts {
			parts = append(parts, strconv.Itoa(int(in.ID))+":"+strconv.Quote(in.Name))
		}
		if got := strings.Join(parts, " "); got != tt.want {
			t.Errorf("InDom(%v) = %s\n\twant %s", tt.indom, got, tt.want)
		}
	}
	if _, err := c.InDom(pmapi.NewInDom(60, 99)); !errors.Is(err, pmapi.ErrInDom) {
		t.Errorf("InDom(60.99) error %v, want PM_ERR_INDOM", err)
	}
}
