package fleet

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"
)

// ParseHosts reads a file of hosts, text, named file in messages: one
// host specification (as pmie -h takes it) a line, with blank lines and
// comments (from #) left out.
func ParseHosts(file, text string) ([]string, []Problem) {
	var hosts []string
	var problems []Problem
	for i, line := range strings.Split(text, "\n") {
		if c := strings.IndexByte(line, '#'); c >= 0 {
			line = line[:c]
		}
		f := strings.Fields(line)
		switch len(f) {
		case 0:
		case 1:
			hosts = append(hosts, f[0])
		default:
			problems = append(problems, Problem{File: file, Line: i + 1,
				Msg: "one host a line, not " + strconv.Quote(strings.TrimSpace(line))})
		}
	}
	return hosts, problems
}

// errText is an error reading a file, without the file's name (which the
// message gives already).
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
