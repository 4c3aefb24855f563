// Package agent is pmie's secret agent mode (pmie -x): what pmie sends on
// its standard output to the summary PMDA (pmdasummary, which runs it as
// a child and reads the other end of the pipe), in PCP's wire protocol.
//
// Each named expression is a metric of the PMDA, the PMID its name has in
// the default namespace. Before the first evaluation, pmie sends one DESC
// PDU per expression, task by task (a task being the expressions sharing
// an interval, see rules.ByInterval): a singular double whose semantics
// and units are the expression's (a truth, a reserved variable or a
// number made of constants is an instantaneous value; an expression
// whose semantics are unknown is PM_TYPE_NOSUPPORT). After each
// evaluation of a task it sends one RESULT PDU holding the task's
// expressions, each with one value (eval.Node.Word) or none: no value
// when it is not a finite number, PM_ERR_VALUE when it is unknown. The
// timestamps are zero, as pmie never sets them.
//
// The header of each PDU names its sender, which pmie leaves to libpcp: the
// handle of the PMAPI context current when it sends, which the PMDA
// ignores. Contexts works those handles out as libpcp 6.0.3 numbers the
// contexts pmie opens while it reads its rules, so that the PDUs are
// pmie's, byte for byte, for archives (live, hosts that come and go, and
// metrics looked up again, open more contexts than it counts).
//
// The package encodes with internal/pdu and reads rules' values through
// eval; it opens nothing itself: the caller gives it the namespace look-up
// and the output. The rules' restrictions in this mode (named
// expressions, no actions) are eval's (eval.ModeAgent).
package agent
