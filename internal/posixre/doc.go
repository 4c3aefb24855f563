// Package posixre is glibc's POSIX extended regular expressions as libpcp
// and pmie use them: regcomp(3) with REG_EXTENDED|REG_NOSUB in the C
// locale, then regexec(3) to learn whether a string matches.
//
// It accepts what glibc accepts and rejects what glibc rejects, with
// regerror(3)'s words for the reason ("Unmatched ( or \(", "Invalid range
// end", ...): a lone ")" or "}" is an ordinary character, "*" at the start
// of an expression is an error, "a**" is allowed, intervals run to 32767,
// bracket expressions have POSIX classes, collating symbols and
// equivalence classes of one character, a backslash inside brackets is
// itself, and the GNU operators \w \W \s \S \b \B \< \> \` \' and back
// references \1 to \9 are there. Strings are bytes, as in the C locale.
// glibc's quirks are kept too: repetitions are built as copies of what
// they repeat, and an anchor whose next node is in a copy has no effect
// ("(^a){2}" matches "aa").
//
// Only whether a string matches is answered (REG_NOSUB): patterns are
// compiled to a program of byte sets, branches and assertions run by a
// Pike VM, which takes time linear in the string; a pattern with back
// references, which no finite automaton can follow, is run by a
// backtracking matcher instead, which looks for any way of matching.
//
// posixre imports nothing of ours; derive (matchinst) and eval
// (match_inst, nomatch_inst) use it.
package posixre
