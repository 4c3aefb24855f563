package pmieconf

import "bytes"

// tokenBuffer is pmieconf's token buffer, which its reader of rules files
// and its reader of the saved block of a pmie file share, one after the
// other: each word read is written over the one before, with a NUL after
// it, so what lies beyond the NUL is left from longer words before. A
// word cut off by the end of the saved block gets no NUL and runs on into
// them. pmieconf quotes the buffer in some of its messages.
type tokenBuffer []byte

// store writes word into the buffer, ended with a NUL if ended.
func (t *tokenBuffer) store(word string, ended bool) {
	for len(*t) < len(word)+1 {
		*t = append(*t, 0)
	}
	copy(*t, word)
	if ended {
		(*t)[len(word)] = 0
	}
}

// held is the buffer as a C string.
func (t tokenBuffer) held() string {
	if i := bytes.IndexByte(t, 0); i >= 0 {
		return string(t[:i])
	}
	return string(t)
}
