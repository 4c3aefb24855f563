//go:build linux

package local

import (
	"errors"
	"sync"
	"syscall"

	"github.com/gopcp/pmie/pmapi"
)

// source is a set of the files a fetch has to read: each metric names the
// ones its values come from, and a fetch reads each needed file once.
type source uint32

const (
	srcStat source = 1 << iota
	srcMeminfo
	srcLoadavg
	srcUptime
	srcVmstat
	srcDiskstats
	srcNetDev
	srcNetMTU   // /sys/class/net/*/mtu
	srcNetSpeed // /sys/class/net/*/speed
	srcNetFlags // /sys/class/net/*/flags
	srcMounts
	srcProcs
	srcUname
	nSources = iota
)

// getter gives the value of a metric for one instance (pmapi.InNull for a
// singular metric). It returns errNoValue when the instance has no value
// now, or a PCP error code that the fetch reports if no instance has a
// value.
type getter func(c *Context, inst int32) (pmapi.Atom, error)

// errNoValue is a getter's "no value available", which is no error.
var errNoValue = errors.New("no value available")

// impl says how the collector computes a metric.
type impl struct {
	need source
	get  getter
}

// metaRow is a metric's name, descriptor and help text, as generated
// from real PCP into meta_gen.go.
type metaRow struct {
	name    string
	pmid    pmapi.PMID
	typ     pmapi.Type
	indom   pmapi.InDom
	sem     pmapi.Sem
	units   pmapi.Units
	oneline string
	help    string
}

// indomRow is an instance domain's help text.
type indomRow struct {
	indom         pmapi.InDom
	oneline, help string
}

func units(dimSpace, dimTime, dimCount, scaleSpace, scaleTime, scaleCount int8) pmapi.Units {
	return pmapi.Units{DimSpace: dimSpace, DimTime: dimTime, DimCount: dimCount,
		ScaleSpace: scaleSpace, ScaleTime: scaleTime, ScaleCount: scaleCount}
}

func u32(f func(c *Context) uint32, need source) impl {
	return impl{need, func(c *Context, _ int32) (pmapi.Atom, error) { return pmapi.U32(f(c)), nil }}
}

// implTable is how each metric of meta is computed; a test checks that
// the two tables name the same metrics. It is a function so that a
// process that never reads the local host (an archive or pmcd client)
// does not build it at start-up.
func implTable() map[string]impl {
	return map[string]impl{
		"kernel.all.load":      loadImpl,
		"kernel.all.intr":      statU64(func(s *procStat) uint64 { return s.intr }),
		"kernel.all.pswitch":   statU64(func(s *procStat) uint64 { return s.ctxt }),
		"kernel.all.sysfork":   statU64(func(s *procStat) uint64 { return s.processes }),
		"kernel.all.running":   statU64(func(s *procStat) uint64 { return s.running }),
		"kernel.all.blocked":   statU64(func(s *procStat) uint64 { return s.blocked }),
		"kernel.all.boottime":  {srcStat, func(c *Context, _ int32) (pmapi.Atom, error) { return pmapi.I64(c.stat.btime), nil }},
		"kernel.all.hz":        u32(func(c *Context) uint32 { return uint32(c.hz) }, 0),
		"kernel.all.uptime":    {srcUptime, func(c *Context, _ int32) (pmapi.Atom, error) { return pmapi.F64(c.up.up), nil }},
		"kernel.all.idletime":  {srcUptime, func(c *Context, _ int32) (pmapi.Atom, error) { return pmapi.F64(c.up.idle), nil }},
		"kernel.all.lastpid":   u32(func(c *Context) uint32 { return c.load.lastpid }, srcLoadavg),
		"kernel.all.runnable":  u32(func(c *Context) uint32 { return c.load.runnable }, srcLoadavg),
		"kernel.all.nprocs":    u32(func(c *Context) uint32 { return c.load.nprocs }, srcLoadavg),
		"kernel.all.cpu.user":  allCPU(user),
		"kernel.all.cpu.nice":  allCPU(nice),
		"kernel.all.cpu.sys":   allCPU(sys),
		"kernel.all.cpu.idle":  allCPU(idle),
		"kernel.all.cpu.intr":  allCPU(intr),
		"kernel.all.cpu.steal": allCPU(steal),
		"kernel.all.cpu.guest": allCPU(guest),
		"kernel.all.cpu.vuser": allCPU(vuser),

		"kernel.all.cpu.guest_nice":    allCPU(gnice),
		"kernel.all.cpu.vnice":         allCPU(vnice),
		"kernel.all.cpu.wait.total":    allCPU(wait),
		"kernel.all.cpu.irq.soft":      allCPU(sirq),
		"kernel.all.cpu.irq.hard":      allCPU(hirq),
		"kernel.percpu.cpu.user":       perCPU(user),
		"kernel.percpu.cpu.nice":       perCPU(nice),
		"kernel.percpu.cpu.sys":        perCPU(sys),
		"kernel.percpu.cpu.idle":       perCPU(idle),
		"kernel.percpu.cpu.intr":       perCPU(intr),
		"kernel.percpu.cpu.steal":      perCPU(steal),
		"kernel.percpu.cpu.guest":      perCPU(guest),
		"kernel.percpu.cpu.vuser":      perCPU(vuser),
		"kernel.percpu.cpu.guest_nice": perCPU(gnice),
		"kernel.percpu.cpu.vnice":      perCPU(vnice),
		"kernel.percpu.cpu.wait.total": perCPU(wait),
		"kernel.percpu.cpu.irq.soft":   perCPU(sirq),
		"kernel.percpu.cpu.irq.hard":   perCPU(hirq),

		"kernel.uname.release":  unameField(func(u *uname) string { return u.release }),
		"kernel.uname.version":  unameField(func(u *uname) string { return u.version }),
		"kernel.uname.sysname":  unameField(func(u *uname) string { return u.sysname }),
		"kernel.uname.machine":  unameField(func(u *uname) string { return u.machine }),
		"kernel.uname.nodename": unameField(func(u *uname) string { return u.nodename }),

		"hinv.physmem":    memGet(func(v *[nMeminfo]int64) pmapi.Atom { return pmapi.U32(uint32(v[mTotal] >> 10)) }, mTotal),
		"hinv.pagesize":   u32(func(c *Context) uint32 { return uint32(c.pageSize) }, 0),
		"hinv.ncpu":       u32(func(c *Context) uint32 { return c.stat.cpus.numActive() }, srcStat),
		"hinv.ndisk":      u32(func(c *Context) uint32 { return c.disk.devs.numActive() }, srcDiskstats),
		"hinv.nfilesys":   u32(func(c *Context) uint32 { return c.fs.fs.numActive() }, srcMounts),
		"hinv.ninterface": u32(func(c *Context) uint32 { return c.net.ifs.numActive() }, srcNetDev),
		"hinv.hugepagesize": memGet(func(v *[nMeminfo]int64) pmapi.Atom {
			return pmapi.U32(uint32(v[mHugepagesize] << 10))
		}, mHugepagesize),

		"mem.physmem":                  memKB(mTotal),
		"mem.freemem":                  memKB(mFree),
		"mem.util.used":                memGet(func(v *[nMeminfo]int64) pmapi.Atom { return pmapi.U64(uint64(v[mTotal] - v[mFree])) }, mTotal, mFree),
		"mem.util.free":                memKB(mFree),
		"mem.util.shared":              memKB(mShared),
		"mem.util.bufmem":              memKB(mBuffers),
		"mem.util.cached":              memKB(mCached),
		"mem.util.other":               memDiff(mTotal, mFree, mCached, mBuffers),
		"mem.util.swapCached":          memKB(mSwapCached),
		"mem.util.active":              memKB(mActive),
		"mem.util.inactive":            memKB(mInactive),
		"mem.util.highTotal":           memKB(mHighTotal),
		"mem.util.highFree":            memKB(mHighFree),
		"mem.util.lowTotal":            memKB(mLowTotal),
		"mem.util.lowFree":             memKB(mLowFree),
		"mem.util.swapTotal":           memKB(mSwapTotal),
		"mem.util.swapFree":            memKB(mSwapFree),
		"mem.util.dirty":               memKB(mDirty),
		"mem.util.writeback":           memKB(mWriteback),
		"mem.util.mapped":              memKB(mMapped),
		"mem.util.slab":                memKB(mSlab),
		"mem.util.committed_AS":        memKB(mCommittedAS),
		"mem.util.pageTables":          memKB(mPageTables),
		"mem.util.reverseMaps":         memKB(mReverseMaps),
		"mem.util.cache_clean":         memDiff(mCached, mDirty, mWriteback),
		"mem.util.anonpages":           memKB(mAnonPages),
		"mem.util.commitLimit":         memKB(mCommitLimit),
		"mem.util.bounce":              memKB(mBounce),
		"mem.util.NFS_Unstable":        memKB(mNFSUnstable),
		"mem.util.slabReclaimable":     memKB(mSReclaimable),
		"mem.util.slabUnreclaimable":   memKB(mSUnreclaim),
		"mem.util.active_anon":         memKB(mActiveAnon),
		"mem.util.inactive_anon":       memKB(mInactiveAnon),
		"mem.util.active_file":         memKB(mActiveFile),
		"mem.util.inactive_file":       memKB(mInactiveFile),
		"mem.util.unevictable":         memKB(mUnevictable),
		"mem.util.mlocked":             memKB(mMlocked),
		"mem.util.shmem":               memKB(mShmem),
		"mem.util.kernelStack":         memKB(mKernelStack),
		"mem.util.hugepagesTotal":      memKB(mHugePagesTotal),
		"mem.util.hugepagesFree":       memKB(mHugePagesFree),
		"mem.util.hugepagesRsvd":       memKB(mHugePagesRsvd),
		"mem.util.hugepagesSurp":       memKB(mHugePagesSurp),
		"mem.util.directMap4k":         memKB(mDirectMap4k),
		"mem.util.directMap2M":         memKB(mDirectMap2M),
		"mem.util.vmallocTotal":        memKB(mVmallocTotal),
		"mem.util.vmallocUsed":         memKB(mVmallocUsed),
		"mem.util.vmallocChunk":        memKB(mVmallocChunk),
		"mem.util.mmap_copy":           memKB(mMmapCopy),
		"mem.util.quicklists":          memKB(mQuicklists),
		"mem.util.corrupthardware":     memKB(mHardwareCorrupted),
		"mem.util.anonhugepages":       memKB(mAnonHugePages),
		"mem.util.directMap1G":         memKB(mDirectMap1G),
		"mem.util.available":           memKB(mAvailable),
		"mem.util.hugepagesTotalBytes": memHugeBytes(mHugePagesTotal),
		"mem.util.hugepagesFreeBytes":  memHugeBytes(mHugePagesFree),
		"mem.util.hugepagesRsvdBytes":  memHugeBytes(mHugePagesRsvd),
		"mem.util.hugepagesSurpBytes":  memHugeBytes(mHugePagesSurp),

		"swap.pagesin":  vmstatU32(0),
		"swap.pagesout": vmstatU32(1),
		"swap.free":     memBytes(mSwapFree),
		"swap.length":   memBytes(mSwapTotal),
		"swap.used": memGet(func(v *[nMeminfo]int64) pmapi.Atom {
			return pmapi.U64(uint64(v[mSwapTotal]-v[mSwapFree]) << 10)
		}, mSwapTotal, mSwapFree),

		"disk.dev.read":              devU64(rdIOs),
		"disk.dev.write":             devU64(wrIOs),
		"disk.dev.total":             devU64(totIOs),
		"disk.dev.blkread":           devU64(rdSectors),
		"disk.dev.blkwrite":          devU64(wrSectors),
		"disk.dev.blktotal":          devU64(totSectors),
		"disk.dev.read_bytes":        devU64(rdKB),
		"disk.dev.write_bytes":       devU64(wrKB),
		"disk.dev.total_bytes":       devU64(totKB),
		"disk.dev.read_merge":        devU64(rdMerges),
		"disk.dev.write_merge":       devU64(wrMerges),
		"disk.dev.avactive":          devU32(func(s *diskStat) uint32 { return s.ioTicks }),
		"disk.dev.read_rawactive":    devU32(func(s *diskStat) uint32 { return s.rdTicks }),
		"disk.dev.write_rawactive":   devU32(func(s *diskStat) uint32 { return s.wrTicks }),
		"disk.dev.total_rawactive":   devU32(func(s *diskStat) uint32 { return s.rdTicks + s.wrTicks }),
		"disk.dev.aveq":              devU32(func(s *diskStat) uint32 { return s.aveq }),
		"disk.dev.discard":           devU64(dsIOs),
		"disk.dev.blkdiscard":        devU64(dsSectors),
		"disk.dev.discard_bytes":     devU64(dsKB),
		"disk.dev.discard_merge":     devU64(dsMerges),
		"disk.dev.discard_rawactive": devU32(func(s *diskStat) uint32 { return s.dsTicks }),
		"disk.dev.flush":             devU64(flIOs),
		"disk.dev.flush_rawactive":   devU32(func(s *diskStat) uint32 { return s.flTicks }),
		"disk.dev.inflight":          devU32(func(s *diskStat) uint32 { return s.inFlight }),

		"disk.all.read":              allU64(rdIOs),
		"disk.all.write":             allU64(wrIOs),
		"disk.all.total":             allU64(totIOs),
		"disk.all.blkread":           allU64(rdSectors),
		"disk.all.blkwrite":          allU64(wrSectors),
		"disk.all.blktotal":          allU64(totSectors),
		"disk.all.read_bytes":        allU64(rdKB),
		"disk.all.write_bytes":       allU64(wrKB),
		"disk.all.total_bytes":       allU64(totKB),
		"disk.all.read_merge":        allU64(rdMerges),
		"disk.all.write_merge":       allU64(wrMerges),
		"disk.all.avactive":          allU64(ioTicks),
		"disk.all.read_rawactive":    allU64(rdTicks),
		"disk.all.write_rawactive":   allU64(wrTicks),
		"disk.all.total_rawactive":   allU64(totTicks),
		"disk.all.aveq":              allU64(aveq),
		"disk.all.discard":           allU64(dsIOs),
		"disk.all.blkdiscard":        allU64(dsSectors),
		"disk.all.discard_bytes":     allU64(dsKB),
		"disk.all.discard_merge":     allU64(dsMerges),
		"disk.all.discard_rawactive": allU32(dsTicks),
		"disk.all.flush":             allU64(flIOs),
		"disk.all.flush_rawactive":   allU32(flTicks),
		"disk.all.inflight":          allU64(inFlight),

		"network.interface.collisions":     netCounter(13),
		"network.interface.mtu":            netMTU,
		"network.interface.speed":          netSpeed,
		"network.interface.baudrate":       netBaud,
		"network.interface.up":             netFlag(func(e *netIf) bool { return e.up }),
		"network.interface.running":        netFlag(func(e *netIf) bool { return e.running }),
		"network.interface.in.bytes":       netCounter(0),
		"network.interface.in.packets":     netCounter(1),
		"network.interface.in.errors":      netCounter(2),
		"network.interface.in.drops":       netCounter(3),
		"network.interface.in.fifo":        netCounter(4),
		"network.interface.in.frame":       netCounter(5),
		"network.interface.in.compressed":  netCounter(6),
		"network.interface.in.mcasts":      netCounter(7),
		"network.interface.out.bytes":      netCounter(8),
		"network.interface.out.packets":    netCounter(9),
		"network.interface.out.errors":     netCounter(10),
		"network.interface.out.drops":      netCounter(11),
		"network.interface.out.fifo":       netCounter(12),
		"network.interface.out.carrier":    netCounter(14),
		"network.interface.out.compressed": netCounter(15),
		"network.interface.total.bytes":    netCounter(0, 8),
		"network.interface.total.packets":  netCounter(1, 9),
		"network.interface.total.errors":   netCounter(2, 10),
		"network.interface.total.drops":    netCounter(3, 11),
		"network.interface.total.mcasts":   netCounter(7), // there is no out.mcasts

		"filesys.capacity":  fsKB(func(st *syscall.Statfs_t) uint64 { return uint64(st.Blocks) }),
		"filesys.used":      fsKB(func(st *syscall.Statfs_t) uint64 { return uint64(st.Blocks - st.Bfree) }),
		"filesys.free":      fsKB(func(st *syscall.Statfs_t) uint64 { return uint64(st.Bfree) }),
		"filesys.avail":     fsKB(func(st *syscall.Statfs_t) uint64 { return uint64(st.Bavail) }),
		"filesys.maxfiles":  fsStat(func(st *syscall.Statfs_t) pmapi.Atom { return pmapi.U32(uint32(st.Files)) }),
		"filesys.usedfiles": fsStat(func(st *syscall.Statfs_t) pmapi.Atom { return pmapi.U32(uint32(st.Files - st.Ffree)) }),
		"filesys.freefiles": fsStat(func(st *syscall.Statfs_t) pmapi.Atom { return pmapi.U32(uint32(st.Ffree)) }),
		"filesys.blocksize": fsStat(func(st *syscall.Statfs_t) pmapi.Atom { return pmapi.U32(uint32(st.Bsize)) }),
		"filesys.full":      fsStat(fsFull),
		"filesys.mountdir":  fsMountDir,
		"filesys.readonly":  fsReadOnly,

		"proc.nprocs": u32(func(c *Context) uint32 { return c.procs.n }, srcProcs),
	}
}

// vmstatU32 reports pswpin (0) or pswpout (1) of /proc/vmstat.
func vmstatU32(which int) impl {
	return impl{srcVmstat, func(c *Context, _ int32) (pmapi.Atom, error) {
		if !c.vm.have[which] {
			return pmapi.Atom{}, errNoValue
		}
		v := c.vm.pswpin
		if which == 1 {
			v = c.vm.pswpout
		}
		return pmapi.U32(uint32(v)), nil
	}}
}

// metric is one metric of the namespace: what meta_gen.go says of it,
// and how it is computed.
type metric struct {
	metaRow
	impl
}

// namespace is the local host's metrics, built from meta and implTable.
type namespace struct {
	metrics  []metric
	byName   map[string]*metric
	byPMID   map[pmapi.PMID]*metric
	children map[string][]pmapi.Child // interior node -> its children in order
	indomTxt map[pmapi.InDom]*indomRow
}

// space is the namespace, built on first use: pmie and pminfo on an
// archive or a pmcd never pay for it.
var space = sync.OnceValue(func() *namespace {
	impls := implTable()
	ns := &namespace{metrics: make([]metric, 0, len(meta))}
	for _, row := range meta {
		if im, ok := impls[row.name]; ok {
			ns.metrics = append(ns.metrics, metric{row, im})
		}
	}
	ns.byName = make(map[string]*metric, len(ns.metrics))
	ns.byPMID = make(map[pmapi.PMID]*metric, len(ns.metrics))
	ns.children = map[string][]pmapi.Child{}
	for i := range ns.metrics {
		m := &ns.metrics[i]
		ns.byName[m.name] = m
		ns.byPMID[m.pmid] = m
		ns.addPath(m.name)
	}
	ns.indomTxt = make(map[pmapi.InDom]*indomRow, len(indomMeta))
	for i := range indomMeta {
		ns.indomTxt[indomMeta[i].indom] = &indomMeta[i]
	}
	return ns
})

// addPath enters every node on the way to the leaf name into children.
func (ns *namespace) addPath(name string) {
	parent := ""
	for i := 0; i <= len(name); i++ {
		if i < len(name) && name[i] != '.' {
			continue
		}
		node := name[:i]
		last := node[len(parent):]
		if parent != "" {
			last = last[1:]
		}
		leaf := i == len(name)
		kids := ns.children[parent]
		if len(kids) == 0 || kids[len(kids)-1].Name != last {
			found := false
			for _, k := range kids {
				if k.Name == last {
					found = true
				}
			}
			if !found {
				ns.children[parent] = append(kids, pmapi.Child{Name: last, Leaf: leaf})
			}
		}
		parent = node
	}
}
