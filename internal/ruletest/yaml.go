package ruletest

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/gopcp/pmie/lang"
)

// A test file is read in two steps: goccy/go-yaml parses the YAML
// (reporting syntax errors with their line and column), then its syntax
// tree is turned into ynodes, plain maps, lists and scalars with their
// positions, which file.go reads into a File.

// ykind is the kind of a ynode.
type ykind uint8

const (
	yNull ykind = iota
	yScalar
	yMap
	ySeq
)

// ynode is one node of a YAML document.
type ynode struct {
	kind   ykind
	span   lang.Span
	text   string // scalar: its value (for a plain scalar, as written)
	quoted bool   // scalar: written in quotes or as a block
	keys   []*ynode
	vals   []*ynode // map: the value of each key
	items  []*ynode // sequence
}

// describe names what a node is, for messages.
func (n *ynode) describe() string {
	switch n.kind {
	case yMap:
		return "a mapping"
	case ySeq:
		return "a list"
	case yNull:
		return "nothing"
	}
	return fmt.Sprintf("%q", n.text)
}

// maxDepth bounds how deeply a document may nest (and aliases expand),
// so that a hostile file cannot exhaust the stack or memory.
const maxDepth = 64

// yamlReader turns a goccy syntax tree into ynodes.
type yamlReader struct {
	src     *lang.Source
	lines   *lines
	anchors map[string]*ynode
	diags   lang.Diagnostics
	nodes   int
}

// parseYAML parses src as one YAML document.
func parseYAML(src *lang.Source) (root *ynode, diags lang.Diagnostics) {
	defer func() {
		if r := recover(); r != nil {
			root = nil
			diags = lang.Diagnostics{{Src: src, Msg: fmt.Sprintf("internal error reading YAML: %v", r)}}
		}
	}()
	f, err := parser.ParseBytes([]byte(src.Text), 0)
	if err != nil {
		return nil, lang.Diagnostics{yamlError(src, err)}
	}
	r := &yamlReader{src: src, lines: newLines(src), anchors: map[string]*ynode{}}
	var docs []*ast.DocumentNode
	for _, d := range f.Docs {
		if d != nil && d.Body != nil {
			docs = append(docs, d)
		}
	}
	switch {
	case len(docs) == 0:
		return nil, lang.Diagnostics{{Src: src, Msg: "the file has no YAML document"}}
	case len(docs) > 1:
		return nil, lang.Diagnostics{r.diag(docs[1].Body.GetToken(), "the file has more than one YAML document")}
	}
	root = r.node(docs[0].Body, 0)
	return root, r.diags
}

// yamlError is a diagnostic for a YAML syntax error.
func yamlError(src *lang.Source, err error) *lang.Diagnostic {
	var se *yaml.SyntaxError
	if errors.As(err, &se) && se.Token != nil && se.Token.Position != nil {
		return &lang.Diagnostic{Src: src, Span: newLines(src).span(se.Token), Msg: "YAML: " + se.Message}
	}
	return &lang.Diagnostic{Src: src, Msg: "YAML: " + err.Error()}
}

// lines finds positions in a source by line and column.
type lines struct {
	src    *lang.Source
	starts []int // byte offset of each line's start
}

func newLines(src *lang.Source) *lines {
	l := &lines{src: src, starts: []int{0}}
	for i := 0; i < len(src.Text); i++ {
		if src.Text[i] == '\n' {
			l.starts = append(l.starts, i+1)
		}
	}
	return l
}

// pos is the position of line and column (1-based, the column in
// characters), clamped to the text.
func (l *lines) pos(line, col int) lang.Pos {
	if line < 1 {
		return l.src.Pos(0)
	}
	if line > len(l.starts) {
		return l.src.Pos(len(l.src.Text))
	}
	off := l.starts[line-1]
	for i := 1; i < col && off < len(l.src.Text) && l.src.Text[off] != '\n'; i++ {
		_, n := utf8.DecodeRuneInString(l.src.Text[off:])
		off += n
	}
	return l.src.Pos(off)
}

// span is the span of a token's text (as far as the end of its first
// line, for one that runs over several).
func (l *lines) span(t *token.Token) lang.Span {
	if t == nil || t.Position == nil {
		return lang.Span{}
	}
	start := l.pos(t.Position.Line, t.Position.Column)
	text := strings.TrimRight(t.Origin, " \t\r\n")
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	end := start.Offset + max(1, len(text))
	if i := strings.IndexByte(l.src.Text[start.Offset:], '\n'); i >= 0 {
		end = min(end, start.Offset+i)
	}
	end = min(end, len(l.src.Text))
	return lang.Span{Start: start, End: l.src.Pos(end)}
}

// diag makes an error at a token.
func (r *yamlReader) diag(t *token.Token, format string, args ...any) *lang.Diagnostic {
	return &lang.Diagnostic{Src: r.src, Span: r.lines.span(t), Msg: fmt.Sprintf(format, args...)}
}

// node converts one node of the syntax tree.
func (r *yamlReader) node(n ast.Node, depth int) *ynode {
	r.nodes++
	if depth > maxDepth || r.nodes > maxNodes {
		r.diags = append(r.diags, r.diag(n.GetToken(), "the document is too deeply nested or too large"))
		return &ynode{kind: yNull}
	}
	switch n := n.(type) {
	case *ast.MappingNode:
		return r.mapping(n, n.Values, depth)
	case *ast.MappingValueNode:
		return r.mapping(n, []*ast.MappingValueNode{n}, depth)
	case *ast.SequenceNode:
		y := &ynode{kind: ySeq, span: r.lines.span(n.GetToken())}
		for _, v := range n.Values {
			y.items = append(y.items, r.value(v, depth+1))
		}
		return y
	case *ast.AnchorNode:
		y := r.value(n.Value, depth+1)
		if n.Name != nil {
			r.anchors[n.Name.GetToken().Value] = y
		}
		return y
	case *ast.AliasNode:
		name := ""
		if n.Value != nil {
			name = n.Value.GetToken().Value
		}
		if y, ok := r.anchors[name]; ok {
			return y
		}
		r.diags = append(r.diags, r.diag(n.GetToken(), "alias *%s names no anchor defined before it", name))
		return &ynode{kind: yNull, span: r.lines.span(n.GetToken())}
	case *ast.TagNode:
		return r.value(n.Value, depth+1)
	case *ast.LiteralNode:
		y := &ynode{kind: yScalar, span: r.lines.span(n.GetToken()), quoted: true}
		if n.Value != nil {
			y.text = n.Value.Value
		}
		return y
	case *ast.StringNode:
		t := n.GetToken()
		q := t.Type == token.SingleQuoteType || t.Type == token.DoubleQuoteType
		return &ynode{kind: yScalar, span: r.lines.span(t), text: n.Value, quoted: q}
	case *ast.NullNode:
		return &ynode{kind: yNull, span: r.lines.span(n.GetToken())}
	case *ast.CommentGroupNode, *ast.CommentNode:
		return &ynode{kind: yNull}
	case ast.ScalarNode:
		t := n.GetToken()
		return &ynode{kind: yScalar, span: r.lines.span(t), text: t.Value}
	}
	r.diags = append(r.diags, r.diag(n.GetToken(), "unexpected YAML %s", n.Type()))
	return &ynode{kind: yNull, span: r.lines.span(n.GetToken())}
}

// maxNodes bounds the number of nodes read (aliases count each time).
const maxNodes = 1 << 20

// value converts a node that may be missing (nil: null).
func (r *yamlReader) value(n ast.Node, depth int) *ynode {
	if n == nil {
		return &ynode{kind: yNull}
	}
	return r.node(n, depth)
}

// mapping converts a mapping's pairs; keys must be scalars, and may not
// repeat.
func (r *yamlReader) mapping(n ast.Node, pairs []*ast.MappingValueNode, depth int) *ynode {
	y := &ynode{kind: yMap, span: r.lines.span(n.GetToken())}
	seen := map[string]*ynode{}
	for _, p := range pairs {
		if p.Key == nil {
			continue
		}
		if p.Key.IsMergeKey() {
			r.diags = append(r.diags, r.diag(p.Key.GetToken(), "merge keys (<<) are not supported"))
			continue
		}
		k := r.node(p.Key, depth+1)
		if k.kind != yScalar {
			r.diags = append(r.diags, r.diag(p.Key.GetToken(), "a key must be a plain value, not %s", k.describe()))
			continue
		}
		if prev := seen[k.text]; prev != nil {
			r.diags = append(r.diags, &lang.Diagnostic{Src: r.src, Span: k.span,
				Msg:   fmt.Sprintf("key %q given twice", k.text),
				Notes: []lang.Note{{Src: r.src, Span: prev.span, Msg: "first given here"}}})
			continue
		}
		seen[k.text] = k
		y.keys = append(y.keys, k)
		y.vals = append(y.vals, r.value(p.Value, depth+1))
	}
	if len(pairs) > 0 && pairs[0].Key != nil {
		y.span = r.lines.span(pairs[0].Key.GetToken())
	}
	return y
}
