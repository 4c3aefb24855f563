// Package hugeheap asks the kernel to back the heap of the process it is
// linked into with transparent huge pages, from early in its
// initialisation. A command imports it for that alone:
//
//	import _ "github.com/gopcp/pmie/internal/hugeheap"
//
// Each page of the heap first touched costs a page fault. In a virtual
// machine that fault is dear: measured here, some 20 us of CPU each,
// where pminfo -f on the benchmark archive takes ~330 of them in its
// heap and pmie on it ~700, a fifth of their CPU time. A heap backed by
// huge pages takes one fault for 2 MB. The Go runtime no longer asks
// for them itself (a long-lived server's heap grows by them), so this
// package does, for commands whose run is short or whose start-up is
// the most of their work: it advises huge pages for the runtime's heap
// arena, and gathers the part of the heap the runtime has touched
// already into a huge page (MADV_COLLAPSE, Linux 6.1 on), so that what
// the commands allocate after it takes no more faults until that page
// is full.
//
// An advice changes no memory's contents, so where the kernel does not
// follow it (transparent huge pages off, no free huge page, an older
// kernel, another layout of the runtime's heap than the one expected)
// nothing changes but the faults. GODEBUG=disablethp=1, the runtime's
// own setting against huge pages for the heap, turns it off; so does a
// process that will live long calling Stop.
package hugeheap

// Stop withdraws the advice, for a process about to run for long (a
// daemon): from then on the kernel's background scan does not gather its
// heap into huge pages, which would keep memory resident that the
// runtime gives back. Huge pages already made stay until the runtime
// gives their memory back.
func Stop() { stop() }
