// Package rules runs a compiled set of pmie rules: scheduling by each
// expression's delta (on a passed-in clock, or an archive's timeline),
// rulesets, holdoff, rising/falling memory kept beside the immutable
// compiled rules, and dispatch of actions. Mutable state is keyed by rule
// identity so a reload can carry it over.
package rules
