//go:build linux

package local

import (
	"bytes"

	"github.com/gopcp/pmie/pmapi"
)

// The /proc/meminfo fields the collector reports, all in Kbytes except
// the huge page counts.
const (
	mTotal = iota
	mFree
	mAvailable
	mShared
	mBuffers
	mCached
	mSwapCached
	mActive
	mInactive
	mActiveAnon
	mInactiveAnon
	mActiveFile
	mInactiveFile
	mUnevictable
	mMlocked
	mHighTotal
	mHighFree
	mLowTotal
	mLowFree
	mMmapCopy
	mSwapTotal
	mSwapFree
	mDirty
	mWriteback
	mAnonPages
	mMapped
	mShmem
	mSlab
	mSReclaimable
	mSUnreclaim
	mKernelStack
	mPageTables
	mQuicklists
	mNFSUnstable
	mBounce
	mCommitLimit
	mCommittedAS
	mVmallocTotal
	mVmallocUsed
	mVmallocChunk
	mHardwareCorrupted
	mAnonHugePages
	mReverseMaps
	mHugePagesTotal
	mHugePagesFree
	mHugePagesRsvd
	mHugePagesSurp
	mHugepagesize
	mDirectMap4k
	mDirectMap2M
	mDirectMap1G
	nMeminfo
)

// meminfoKeys maps the names /proc/meminfo uses to our field numbers.
// MemShared and ReverseMaps come from kernels long gone; the PMDA still
// looks for them, so the metrics built on them have no values today.
var meminfoKeys = map[string]int{
	"MemTotal": mTotal, "MemFree": mFree, "MemAvailable": mAvailable,
	"MemShared": mShared, "Buffers": mBuffers, "Cached": mCached,
	"SwapCached": mSwapCached, "Active": mActive, "Inactive": mInactive,
	"Active(anon)": mActiveAnon, "Inactive(anon)": mInactiveAnon,
	"Active(file)": mActiveFile, "Inactive(file)": mInactiveFile,
	"Unevictable": mUnevictable, "Mlocked": mMlocked,
	"HighTotal": mHighTotal, "HighFree": mHighFree,
	"LowTotal": mLowTotal, "LowFree": mLowFree, "MmapCopy": mMmapCopy,
	"SwapTotal": mSwapTotal, "SwapFree": mSwapFree, "Dirty": mDirty,
	"Writeback": mWriteback, "AnonPages": mAnonPages, "Mapped": mMapped,
	"Shmem": mShmem, "Slab": mSlab, "SReclaimable": mSReclaimable,
	"SUnreclaim": mSUnreclaim, "KernelStack": mKernelStack,
	"PageTables": mPageTables, "Quicklists": mQuicklists,
	"NFS_Unstable": mNFSUnstable, "Bounce": mBounce,
	"CommitLimit": mCommitLimit, "Committed_AS": mCommittedAS,
	"VmallocTotal": mVmallocTotal, "VmallocUsed": mVmallocUsed,
	"VmallocChunk": mVmallocChunk, "HardwareCorrupted": mHardwareCorrupted,
	"AnonHugePages": mAnonHugePages, "ReverseMaps": mReverseMaps,
	"HugePages_Total": mHugePagesTotal, "HugePages_Free": mHugePagesFree,
	"HugePages_Rsvd": mHugePagesRsvd, "HugePages_Surp": mHugePagesSurp,
	"Hugepagesize": mHugepagesize, "DirectMap4k": mDirectMap4k,
	"DirectMap2M": mDirectMap2M, "DirectMap1G": mDirectMap1G,
}

// meminfo is /proc/meminfo; a field the kernel does not print is -1.
type meminfo struct {
	file statsFile
	v    [nMeminfo]int64
}

func (m *meminfo) refresh() error {
	b, err := m.file.read()
	if err != nil {
		return err
	}
	m.parse(b)
	return nil
}

// parse takes in the content of the file.
func (m *meminfo) parse(b []byte) {
	for i := range m.v {
		m.v[i] = -1
	}
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		colon := bytes.IndexByte(line, ':')
		if colon < 0 {
			continue
		}
		k, ok := meminfoKeys[bstr(line[:colon])]
		if !ok {
			continue
		}
		rest := line[colon+1:]
		for len(rest) > 0 && !isDigit(rest[0]) {
			rest = rest[1:]
		}
		if v, _, ok := uintField(rest); ok {
			m.v[k] = int64(v)
		}
	}
}

// memGet computes a value from meminfo fields, all of which must be
// present for there to be a value.
func memGet(f func(v *[nMeminfo]int64) pmapi.Atom, fields ...int) impl {
	return impl{srcMeminfo, func(c *Context, _ int32) (pmapi.Atom, error) {
		for _, i := range fields {
			if c.mem.v[i] < 0 {
				return pmapi.Atom{}, errNoValue
			}
		}
		return f(&c.mem.v), nil
	}}
}

// memKB reports one field as it stands.
func memKB(field int) impl {
	return memGet(func(v *[nMeminfo]int64) pmapi.Atom { return pmapi.U64(uint64(v[field])) }, field)
}

// memBytes reports one field of Kbytes in bytes.
func memBytes(field int) impl {
	return memGet(func(v *[nMeminfo]int64) pmapi.Atom { return pmapi.U64(uint64(v[field]) << 10) }, field)
}

// memHugeBytes reports a count of huge pages in bytes.
func memHugeBytes(field int) impl {
	return memGet(func(v *[nMeminfo]int64) pmapi.Atom {
		return pmapi.U64(uint64(v[field] * (v[mHugepagesize] << 10)))
	}, field)
}

// memDiff reports a-b-..., floored at zero.
func memDiff(fields ...int) impl {
	return memGet(func(v *[nMeminfo]int64) pmapi.Atom {
		d := v[fields[0]]
		for _, f := range fields[1:] {
			d -= v[f]
		}
		return pmapi.U64(uint64(max(d, 0)))
	}, fields...)
}
