package main

import (
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/local"
)

// -L reads the embedded collector (package pmapi/local).
func init() {
	sources.Local = func() (pmapi.Context, error) {
		c, err := local.Open(local.Options{})
		if err != nil {
			return nil, err
		}
		return c, nil
	}
}
