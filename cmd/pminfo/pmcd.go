package main

import (
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/pmcd"
)

// pmcd (-h, and the default local: source) through pmapi/pmcd, with
// libpcp's timeouts and environment.
func init() {
	sources.Host = func(spec string) (pmapi.Context, error) {
		ctx, err := pmcd.Dial(spec, pmcd.Config{})
		if err != nil {
			return nil, err
		}
		return ctx, nil
	}
}
