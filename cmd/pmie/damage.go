package main

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/source"
)

// PCP's messages about a damaged archive ("Corrupted record in a PCP
// archive log") do not say where the damage is. pmie prints them as
// pmie does, each followed by a line giving the file, the part of the
// archive and the byte offset; and it warns of damage that libpcp (and
// so pmie's answers) pass over silently.

// errorText is err as pmie prints it: with an archive's damage given in
// PCP's words, followed by a line of detail.
func errorText(err error) string {
	var fe *source.Damage
	if !errors.As(err, &fe) {
		return err.Error()
	}
	detail := fe.Error()
	msg := strings.Replace(err.Error(), detail, fe.Code.Error(), 1)
	return fmt.Sprintf("%s\n%s: %s", msg, prog, detail)
}

// damageDetail is the line of detail for archive damage err, or "".
func damageDetail(err error) string {
	var fe *source.Damage
	if !errors.As(err, &fe) {
		return ""
	}
	return fmt.Sprintf("%s: %s\n", prog, fe)
}

// warnOnce is a warning function for archives (archive.Options.Warn)
// that says each warning once, however many contexts are opened, where
// log writes when it is said (stderr while the archives are first
// opened, the -l log from then on).
func warnOnce(log *logger) func(error) {
	var mu sync.Mutex
	said := map[string]bool{}
	return func(err error) {
		msg := err.Error()
		mu.Lock()
		defer mu.Unlock()
		if !said[msg] {
			said[msg] = true
			fmt.Fprintf(log.w, "%s: warning: %s\n", prog, msg)
		}
	}
}

// ender is an archive context that can say why it has no end
// (pmGetArchiveEnd).
type ender interface {
	End() (pmapi.Time, error)
}
