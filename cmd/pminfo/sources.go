package main

import (
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/archive"
	"github.com/gopcp/pmie/pmapi/local"
	"github.com/gopcp/pmie/pmapi/pmcd"
)

// This file wires in the sources pminfo reads: archives (-a), pmcd (-h,
// and the default local:) and the embedded collector (-L).

func init() {
	sources.Archive = func(name string) (pmapi.Context, error) { return archive.Open(name) }
	sources.Host = func(spec string) (pmapi.Context, error) { return pmcd.Dial(spec, pmcd.Config{}) }
	sources.Local = func() (pmapi.Context, error) { return local.Open(local.Options{}) }
}
