//go:build !linux

package hugeheap

// stop does nothing where no advice was given.
func stop() {}
