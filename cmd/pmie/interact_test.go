package main

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
)

// FuzzDebugCommands reads any input as pmie's debugger reads its
// commands (readLine, splitCommand): no panic, every line read is at most
// maxCommand bytes without a newline and starts with no white space, and
// a command is one printable character with its argument trimmed.
func FuzzDebugCommands(f *testing.F) {
	for _, s := range []string{"l\n", "\n\n  f rules.pmie \nq\n", "r 10sec\nS +5\nT\n", "v x", "\x01\n?\n",
		"l " + strings.Repeat("x", 300) + "\n", "S\t@ 10:00 \r\n", "h\xff\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		d := &debugger{in: bufio.NewReader(bytes.NewReader(input))}
		for n := 0; ; n++ {
			if n > len(input) {
				t.Fatalf("%q: more commands than bytes", input)
			}
			line, more := d.readLine()
			if !more {
				break
			}
			if len(line) > maxCommand || bytes.IndexByte(line, '\n') >= 0 || len(line) > 0 && isSpace(line[0]) {
				t.Errorf("%q: line %q", input, line)
			}
			cmd, arg, given, ok := splitCommand(line)
			if !ok {
				continue
			}
			if cmd <= ' ' || cmd >= 0x7f || given != (arg != "") ||
				given && (isSpace(arg[0]) || isSpace(arg[len(arg)-1])) {
				t.Errorf("%q: command %q, argument %q (%v)", line, cmd, arg, given)
			}
		}
	})
}
