package posixre

// Code is a regcomp(3) error code (REG_*).
type Code int

// The error codes of glibc's regcomp, in regex.h's order.
const (
	ErrNoMatch Code = iota + 1 // REG_NOMATCH
	ErrBadPat                  // REG_BADPAT
	ErrCollate                 // REG_ECOLLATE
	ErrCType                   // REG_ECTYPE
	ErrEscape                  // REG_EESCAPE
	ErrSubReg                  // REG_ESUBREG
	ErrBrack                   // REG_EBRACK
	ErrParen                   // REG_EPAREN
	ErrBrace                   // REG_EBRACE
	ErrBadBr                   // REG_BADBR
	ErrRange                   // REG_ERANGE
	ErrSpace                   // REG_ESPACE
	ErrBadRpt                  // REG_BADRPT
	ErrEnd                     // REG_EEND
	ErrSize                    // REG_ESIZE
	ErrRParen                  // REG_ERPAREN
)

// texts are regerror(3)'s messages (glibc, C locale).
var texts = [...]string{
	0:          "Success",
	ErrNoMatch: "No match",
	ErrBadPat:  "Invalid regular expression",
	ErrCollate: "Invalid collation character",
	ErrCType:   "Invalid character class name",
	ErrEscape:  "Trailing backslash",
	ErrSubReg:  "Invalid back reference",
	ErrBrack:   "Unmatched [, [^, [:, [., or [=",
	ErrParen:   "Unmatched ( or \\(",
	ErrBrace:   "Unmatched \\{",
	ErrBadBr:   "Invalid content of \\{\\}",
	ErrRange:   "Invalid range end",
	ErrSpace:   "Memory exhausted",
	ErrBadRpt:  "Invalid preceding regular expression",
	ErrEnd:     "Premature end of regular expression",
	ErrSize:    "Regular expression too big",
	ErrRParen:  "Unmatched ) or \\)",
}

// Error is a pattern regcomp would not compile.
type Error struct {
	Code Code
}

// Error is regerror's text for the code.
func (e *Error) Error() string {
	if e.Code >= 0 && int(e.Code) < len(texts) {
		return texts[e.Code]
	}
	return "Unknown error"
}
