//go:build linux

package local

import "strings"

// cache is an instance domain whose members come and go, kept as the
// linux PMDA keeps its pmdaCache: each new name gets the next instance
// number, numbers are never reused while the context lives, and a member
// that disappears stays known but inactive, so it gets its old number
// back if it returns. The instance number is the index into ents.
type cache[T any] struct {
	index map[string]int32
	ents  []entry[T]
}

type entry[T any] struct {
	name   string
	active bool
	v      T
}

// find returns the instance number of name, or -1.
func (c *cache[T]) find(name string) int32 {
	if i, ok := c.index[name]; ok {
		return i
	}
	return -1
}

// activate marks name active, adding it if it is new, and returns its
// instance number and whether it was added. name may be a transient view
// of a buffer (see bstr): it is copied when kept.
func (c *cache[T]) activate(name string) (inst int32, added bool) {
	if i := c.find(name); i >= 0 {
		c.ents[i].active = true
		return i, false
	}
	if c.index == nil {
		c.index = make(map[string]int32)
	}
	s := strings.Clone(name)
	i := int32(len(c.ents))
	c.ents = append(c.ents, entry[T]{name: s, active: true})
	c.index[s] = i
	return i, true
}

// deactivateAll marks every member inactive, before a refresh activates
// the ones still present.
func (c *cache[T]) deactivateAll() {
	for i := range c.ents {
		c.ents[i].active = false
	}
}

// numActive counts the active members.
func (c *cache[T]) numActive() uint32 {
	n := uint32(0)
	for i := range c.ents {
		if c.ents[i].active {
			n++
		}
	}
	return n
}

// The methods of domain.
func (c *cache[T]) size() int             { return len(c.ents) }
func (c *cache[T]) isActive(i int) bool   { return c.ents[i].active }
func (c *cache[T]) instID(i int) int32    { return int32(i) }
func (c *cache[T]) instName(i int) string { return c.ents[i].name }
