//go:build !linux

package archive

// adviseHuge does nothing where huge pages are not asked for.
func adviseHuge([]byte) {}
