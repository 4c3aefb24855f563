package archive

import "syscall"

// adviseHuge asks the kernel to back b with huge pages (an advice: it
// may not).
func adviseHuge(b []byte) { syscall.Madvise(b, syscall.MADV_HUGEPAGE) }
