package eval

import (
	"fmt"
	"strings"
)

func dump(x *Node, depth int) string {
	if x == nil {
		return ""
	}
	s := fmt.Sprintf("%s%v valid=%d h=%d i=%d t=%d span=%d n=%d sem=%d num=%v tru=%v\n", strings.Repeat("  ", depth), x.Op, x.valid, x.hdom, x.idom, x.tdom, x.tspan, x.nsmpls, x.sem, x.num, x.tru)
	return s + dump(x.Arg1, depth+1) + dump(x.Arg2, depth+1)
}
