//go:build !linux

package local

import (
	"errors"

	"github.com/gopcp/pmie/pmapi"
)

// Options configure a Context.
type Options struct {
	Root, Hostname string
}

// Context is the embedded collector, which reads Linux's /proc and so
// exists only on Linux.
type Context struct {
	pmapi.Context
}

// Open fails everywhere but Linux.
func Open(Options) (*Context, error) {
	return nil, errors.New("embedded collector: needs Linux's /proc")
}
