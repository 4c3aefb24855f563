package main

import (
	"errors"
	"fmt"

	"github.com/gopcp/pmie/pmapi/source"
)

// PCP's messages about a damaged archive ("Corrupted record in a PCP
// archive log") do not say where the damage is. Where pminfo prints one,
// ours also prints, on stderr, the file, the part of the archive and the
// byte offset; and it warns of damage that libpcp (and so pminfo's
// answers) pass over silently. Each is said once.

// damage prints the detail of err, if it is archive damage, once.
func (p *pminfo) damage(err error) {
	p.note(err, "")
}

// warnDamage prints damage passed over, once.
func (p *pminfo) warnDamage(err error) {
	p.note(err, "warning: ")
}

func (p *pminfo) note(err error, prefix string) {
	var fe *source.Damage
	if !errors.As(err, &fe) {
		return
	}
	msg := fe.Error()
	if p.damaged[msg] {
		return
	}
	if p.damaged == nil {
		p.damaged = make(map[string]bool)
	}
	p.damaged[msg] = true
	fmt.Fprintf(p.errw, "%s: %s%s\n", p.prog, prefix, msg)
}
