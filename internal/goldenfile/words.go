package goldenfile

import "strings"

// Words splits a command line of a golden case as the shell splits a
// simple command: words between spaces and tabs, '...' and "..." quoting
// (so ” is an empty word), and $NAME (capital letters) replaced by
// vars[NAME] outside single quotes. A quote left open runs to the end.
func Words(s string, vars map[string]string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
			continue
		case '\'', '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				j = len(s) - i - 1
			}
			text := s[i+1 : i+1+j]
			if c == '"' {
				text = Expand(text, vars)
			}
			cur.WriteString(text)
			i += j + 1
		case '$':
			j := i + 1
			for j < len(s) && s[j] >= 'A' && s[j] <= 'Z' {
				j++
			}
			cur.WriteString(vars[s[i+1:j]])
			i = j - 1
		default:
			cur.WriteByte(c)
		}
		inWord = true
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// Expand replaces each $NAME of vars in s by its value.
func Expand(s string, vars map[string]string) string {
	for k, v := range vars {
		s = strings.ReplaceAll(s, "$"+k, v)
	}
	return s
}
