package lang

import (
	"errors"
	"io"

	"github.com/alecthomas/participle/v2/lexer"
)

// tokKind is the type of a token. Both languages share one set of kinds so
// that grammar structs for shared constructs can be shared too; each
// scanner produces only some of them.
type tokKind int

const (
	tkEOF      tokKind = tokKind(lexer.EOF)
	tkName     tokKind = iota + 1 // metric name or identifier
	tkInt                         // integer constant
	tkFloat                       // floating constant
	tkString                      // "string"
	tkInstName                    // derived: [instance]
	tkPattern                     // derived: /regex/ inside matchinst(
	tkFunc                        // derived: function name written straight before "("
	tkKeyword                     // reserved word
	tkPunct                       // operator or punctuation
	tkUnit                        // pmie: scale factor word such as Kbyte
	tkVar                         // pmie: $macro with a numeric or boolean value
	tkQuoted                      // pmie: 'quoted' identifier
	tkError                       // scanner error; the token's err says what

	// Kinds no scanner makes: derivedTokens gives them to participle, so
	// that the derived-metric grammar can tell these tokens apart by kind.
	tkBinOp     // a binary operator
	tkPrefix    // a prefix operator: "!", or "-" where no operand precedes it
	tkMkConst   // the function name mkconst
	tkMatchInst // the function name matchinst
)

var tokSymbols = map[string]lexer.TokenType{
	"EOF":      lexer.EOF,
	"Name":     lexer.TokenType(tkName),
	"Int":      lexer.TokenType(tkInt),
	"Float":    lexer.TokenType(tkFloat),
	"String":   lexer.TokenType(tkString),
	"InstName": lexer.TokenType(tkInstName),
	"Pattern":  lexer.TokenType(tkPattern),
	"Func":     lexer.TokenType(tkFunc),
	"Keyword":  lexer.TokenType(tkKeyword),
	"Punct":    lexer.TokenType(tkPunct),
	"Unit":     lexer.TokenType(tkUnit),
	"Var":      lexer.TokenType(tkVar),
	"Quoted":   lexer.TokenType(tkQuoted),

	"BinOp":     lexer.TokenType(tkBinOp),
	"Prefix":    lexer.TokenType(tkPrefix),
	"MkConst":   lexer.TokenType(tkMkConst),
	"MatchInst": lexer.TokenType(tkMatchInst),
}

var tokNames = map[tokKind]string{
	tkEOF: "end of input", tkName: "name", tkInt: "integer", tkFloat: "number",
	tkString: "string", tkInstName: "instance name", tkPattern: "pattern",
	tkFunc: "function", tkKeyword: "keyword", tkPunct: "operator", tkUnit: "scale factor",
	tkVar: "macro", tkQuoted: "quoted name", tkError: "error",
}

// token is one scanned token. start and end are byte offsets into the text
// the parser reports positions in.
type token struct {
	kind       tokKind
	val        string // value: unescaped text, name, operator
	start, end int
	err        string // tkError: what is wrong
	// pmie only
	num   float64    // tkFloat: the value, as pmie's strtod reads it
	unit  [2]int     // tkUnit: dimension (0 space, 1 time, 2 count) and scale
	from  *Expansion // the macro the token's first character came from
	macro *macroDef  // tkVar: the macro
	seq   int32      // the token's number in the file's Scan
}

// describe names t for our own error messages.
func (t token) describe() string {
	switch t.kind {
	case tkEOF:
		return "end of input"
	case tkPunct, tkKeyword, tkFunc:
		return "\"" + t.val + "\""
	case tkName, tkInt, tkFloat, tkUnit:
		return tokNames[t.kind] + " " + t.val
	}
	return tokNames[t.kind]
}

// lookahead is a parser's one token of lookahead over a scanner (next),
// keeping the tokens consumed.
type lookahead struct {
	next func() token
	look token
	have bool
	toks []token
}

func (l *lookahead) peek() token {
	if !l.have {
		l.look = l.next()
		l.have = true
	}
	return l.look
}

// take consumes the lookahead.
func (l *lookahead) take() token {
	t := l.peek()
	l.have = false
	l.toks = append(l.toks, t)
	return t
}

// tokenDef is the participle lexer definition: the grammar's token types.
// Scanning is done by our own scanners, which hand participle a finished
// token list (see tokenList).
type tokenDef struct{}

func (tokenDef) Symbols() map[string]lexer.TokenType { return tokSymbols }

func (tokenDef) Lex(string, io.Reader) (lexer.Lexer, error) {
	return nil, errors.New("lang: tokens come from lang's own scanners, not from participle")
}

// tokenList feeds already scanned tokens to participle. Token offsets are
// those of the scanner, so node positions map straight back to the text.
type tokenList struct {
	toks []lexer.Token
	i    int
}

func (l *tokenList) Next() (lexer.Token, error) {
	t := l.toks[l.i]
	if l.i < len(l.toks)-1 {
		l.i++
	}
	return t, nil
}

// mustUpgrade hands the tokens to participle; a tokenList never fails.
func mustUpgrade(ts []lexer.Token) *lexer.PeekingLexer {
	pl, err := lexer.Upgrade(&tokenList{toks: ts})
	if err != nil {
		panic(err)
	}
	return pl
}
