package main

import (
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/archive"
)

// This file wires archives (-a) into pminfo; pmcd.go and source_local.go
// do the live sources.

func init() {
	sources.Archive = func(name string, warn func(error)) (pmapi.Context, error) {
		return archive.Open(name, archive.Options{Warn: warn})
	}
}
