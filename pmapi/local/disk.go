//go:build linux

package local

import (
	"strings"

	"github.com/gopcp/pmie/pmapi"
)

// diskStat is one line of /proc/diskstats. The tick counts are
// milliseconds, 32 bits wide as the kernel prints them.
type diskStat struct {
	rdIOs, rdMerges, rdSectors uint64
	rdTicks                    uint32
	wrIOs, wrMerges, wrSectors uint64
	wrTicks                    uint32
	inFlight, ioTicks, aveq    uint32
	dsIOs, dsMerges, dsSectors uint64
	dsTicks                    uint32
	flIOs                      uint64
	flTicks                    uint32
}

// diskstats is /proc/diskstats, kept for whole disks only (the disk
// instance domain, 60.1).
type diskstats struct {
	file statsFile
	devs cache[diskStat]
}

func (d *diskstats) refresh() error {
	b, err := d.file.read()
	if err != nil {
		return err
	}
	d.parse(b)
	return nil
}

// parse takes in the content of the file.
func (d *diskstats) parse(b []byte) {
	d.devs.deactivateAll()
	var v [17]uint64
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		if len(line) == 0 || line[0] != ' ' {
			continue
		}
		_, rest, ok1 := uintField(line)
		_, rest, ok2 := uintField(rest)
		name, rest := field(rest)
		if !ok1 || !ok2 || len(name) == 0 || !isDisk(bstr(name)) {
			continue
		}
		i, _ := d.devs.activate(bstr(name))
		s := &d.devs.ents[i].v
		*s = diskStat{}
		n := uintFields(rest, v[:])
		if n < 11 {
			// The short form kernels before 2.6.25 gave partitions:
			// reads, sectors read, writes, sectors written.
			s.rdIOs, s.rdSectors = v[0], v[1]
			s.wrIOs, s.wrSectors = v[2], v[3]
			continue
		}
		s.rdIOs, s.rdMerges, s.rdSectors, s.rdTicks = v[0], v[1], v[2], uint32(v[3])
		s.wrIOs, s.wrMerges, s.wrSectors, s.wrTicks = v[4], v[5], v[6], uint32(v[7])
		s.inFlight, s.ioTicks, s.aveq = uint32(v[8]), uint32(v[9]), uint32(v[10])
		if n >= 15 {
			s.dsIOs, s.dsMerges, s.dsSectors, s.dsTicks = v[11], v[12], v[13], uint32(v[14])
		}
		if n >= 17 {
			s.flIOs, s.flTicks = v[15], uint32(v[16])
		}
	}
}

// isDisk says whether a /proc/diskstats name is a whole disk, by the
// linux PMDA's rules: not a loop, ram, zram, CD-ROM, partition, XVM
// volume, device-mapper, MD or WWID device.
func isDisk(name string) bool {
	return !strings.HasPrefix(name, "loop") &&
		!strings.HasPrefix(name, "ram") &&
		!isCDROM(name) &&
		!strings.HasPrefix(name, "zram") &&
		!isPartition(name) &&
		!strings.Contains(name, "xvm") &&
		!strings.HasPrefix(name, "dm-") &&
		!strings.HasPrefix(name, "md") &&
		!isWWID(name)
}

func isCDROM(name string) bool {
	return len(name) > 2 && name[:2] == "sr" && isDigit(name[2])
}

func isWWID(name string) bool {
	return len(name) == 18 && (name[0] == '1' || name[0] == '2' || name[0] == '3')
}

// hasPartSuffix says whether name, after prefix, has a 'p' in it, which
// for these device families marks a partition (nvme0n1p1, mmcblk0p2).
func hasPartSuffix(name, prefix string) bool {
	return strings.HasPrefix(name, prefix) && strings.IndexByte(name[len(prefix):], 'p') >= 0
}

// isPartition is the PMDA's guess that a device name is a partition
// rather than a whole disk.
func isPartition(name string) bool {
	if strings.IndexByte(name, '/') >= 0 {
		// Names like rd/c0d0p1: trailing digits after a 'p' are a
		// partition; no trailing digits, wildly guess a disk... which
		// the PMDA counts as a partition all the same.
		m := len(name) - 1
		p := m
		for p > 0 && isDigit(name[p]) {
			p--
		}
		return p == m || name[p] == 'p'
	}
	if name == "" || !isDigit(name[len(name)-1]) {
		return false
	}
	wholeDisk := func(prefix string) bool {
		return strings.HasPrefix(name, prefix) && !hasPartSuffix(name, prefix)
	}
	return !strings.HasPrefix(name, "loop") &&
		!strings.HasPrefix(name, "ram") &&
		!wholeDisk("mmcblk") &&
		!wholeDisk("nvme") &&
		!wholeDisk("rbd") &&
		!strings.HasPrefix(name, "zram") &&
		!wholeDisk("nbd") &&
		!strings.HasPrefix(name, "md") &&
		!strings.HasPrefix(name, "dm-") &&
		!isCDROM(name)
}

// devU64 reports a 64-bit value of each disk.
func devU64(f func(s *diskStat) uint64) impl {
	return impl{srcDiskstats, func(c *Context, inst int32) (pmapi.Atom, error) {
		return pmapi.U64(f(&c.disk.devs.ents[inst].v)), nil
	}}
}

// devU32 reports a 32-bit value of each disk.
func devU32(f func(s *diskStat) uint32) impl {
	return impl{srcDiskstats, func(c *Context, inst int32) (pmapi.Atom, error) {
		return pmapi.U32(f(&c.disk.devs.ents[inst].v)), nil
	}}
}

// allSum reports the sum of a value over all the disks.
func (d *diskstats) sum(f func(s *diskStat) uint64) uint64 {
	t := uint64(0)
	for i := range d.devs.ents {
		if e := &d.devs.ents[i]; e.active {
			t += f(&e.v)
		}
	}
	return t
}

// allU64 reports the sum of a value over the disks.
func allU64(f func(s *diskStat) uint64) impl {
	return impl{srcDiskstats, func(c *Context, _ int32) (pmapi.Atom, error) {
		return pmapi.U64(c.disk.sum(f)), nil
	}}
}

// allU32 reports the sum of a value over the disks, in 32 bits as the
// PMDA keeps a few of them.
func allU32(f func(s *diskStat) uint64) impl {
	return impl{srcDiskstats, func(c *Context, _ int32) (pmapi.Atom, error) {
		return pmapi.U32(uint32(c.disk.sum(f))), nil
	}}
}

// The per-disk columns the disk.dev and disk.all metrics report.
func rdIOs(s *diskStat) uint64      { return s.rdIOs }
func wrIOs(s *diskStat) uint64      { return s.wrIOs }
func totIOs(s *diskStat) uint64     { return s.rdIOs + s.wrIOs }
func rdSectors(s *diskStat) uint64  { return s.rdSectors }
func wrSectors(s *diskStat) uint64  { return s.wrSectors }
func totSectors(s *diskStat) uint64 { return s.rdSectors + s.wrSectors }
func rdKB(s *diskStat) uint64       { return s.rdSectors / 2 }
func wrKB(s *diskStat) uint64       { return s.wrSectors / 2 }
func totKB(s *diskStat) uint64      { return (s.rdSectors + s.wrSectors) / 2 }
func rdMerges(s *diskStat) uint64   { return s.rdMerges }
func wrMerges(s *diskStat) uint64   { return s.wrMerges }
func dsIOs(s *diskStat) uint64      { return s.dsIOs }
func dsMerges(s *diskStat) uint64   { return s.dsMerges }
func dsSectors(s *diskStat) uint64  { return s.dsSectors }
func dsKB(s *diskStat) uint64       { return s.dsSectors / 2 }
func flIOs(s *diskStat) uint64      { return s.flIOs }
func ioTicks(s *diskStat) uint64    { return uint64(s.ioTicks) }
func aveq(s *diskStat) uint64       { return uint64(s.aveq) }
func rdTicks(s *diskStat) uint64    { return uint64(s.rdTicks) }
func wrTicks(s *diskStat) uint64    { return uint64(s.wrTicks) }
func totTicks(s *diskStat) uint64   { return uint64(s.rdTicks + s.wrTicks) }
func dsTicks(s *diskStat) uint64    { return uint64(s.dsTicks) }
func flTicks(s *diskStat) uint64    { return uint64(s.flTicks) }
func inFlight(s *diskStat) uint64   { return uint64(s.inFlight) }
