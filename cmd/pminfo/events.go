package main

import (
	"fmt"
	"strings"

	"github.com/gopcp/pmie/pmapi"
)

// eventDump prints the records of one event array value (-x), as
// pminfo's myeventdump does with the records pmUnpackEventRecords gives:
// each record's flags (libpcp's event.flags parameter) and missed count
// (event.missed) before its parameters.
func (p *pminfo) eventDump(a pmapi.Atom, highres bool) {
	recs, err := pmapi.DecodeEvents(a)
	if err != nil {
		fn := "pmUnpackEventRecords"
		if highres {
			fn = "pmUnpackHighResEventRecords"
		}
		fmt.Fprintf(p.errw, "%s: %s: %s\n", p.prog, fn, errText(err))
		return
	}
	for r, rec := range recs {
		fmt.Fprintf(p.out, "    --- event record [%d] timestamp %s", r, pmapi.FormatEventStamp(rec.Time, highres, p.loc))
		n := len(rec.Params)
		switch {
		case rec.Flags&pmapi.EventFlagMissed != 0:
			n = 2
		case rec.Flags != 0:
			n++
		}
		if n == 0 {
			p.out.WriteString(" ---\n\tNo parameters\n")
			continue
		}
		if rec.Flags != 0 {
			fmt.Fprintf(p.out, " flags 0x%x (%s) ---\n", rec.Flags, pmapi.EventFlagsString(rec.Flags))
		}
		if rec.Flags&pmapi.EventFlagMissed != 0 {
			fmt.Fprintf(p.out, "        ==> %d missed event records\n", rec.Missed)
			continue
		}
		for i, param := range rec.Params {
			p.eventParam(param, i == 0 && rec.Flags == 0)
		}
	}
}

// eventParam prints one parameter of an event record: its names, then
// its value as a metric of its own. first marks the record's first line.
func (p *pminfo) eventParam(param pmapi.EventParam, first bool) {
	names, err := p.ctx.NameAll(param.PMID)
	if err == nil && len(names) > 0 {
		if first {
			p.out.WriteString(" ---\n")
		}
		fmt.Fprintf(p.out, "    %s (%s)\n", strings.Join(names, " or "), param.PMID)
	} else {
		fmt.Fprintf(p.out, "\tPMID: %s\n", param.PMID)
	}
	desc, err := p.ctx.LookupDesc(param.PMID)
	if err != nil {
		fmt.Fprintf(p.out, "\tpmLookupDesc: %s\n", errText(err))
		return
	}
	vs := pmapi.ValueSet{PMID: param.PMID, Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: param.Atom}}}
	p.dump(desc, &vs, "    ")
}
