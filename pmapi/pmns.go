package pmapi

// Traverse calls fn with the full name of every leaf at or below name in
// ctx's namespace ("" is the root), depth first in namespace order, as
// pmTraversePMNS does. A leaf name given as name is passed to fn itself.
// A context that implements NamespaceTraverser is asked for the names at
// once; otherwise its Children are walked (WalkChildren).
func Traverse(ctx Context, name string, fn func(name string) error) error {
	if t, ok := ctx.(NamespaceTraverser); ok {
		names, err := t.TraversePMNS(name)
		if err != nil {
			return err
		}
		for _, n := range names {
			if err := fn(n); err != nil {
				return err
			}
		}
		return nil
	}
	return WalkChildren(ctx, name, fn)
}

// NamespaceTraverser is implemented by contexts whose namespace is
// traversed in one request rather than by walking Children: libpcp asks
// pmcd for every name below a node, and adds the client's derived metrics
// after them.
type NamespaceTraverser interface {
	// TraversePMNS lists the leaves at or below name, in order; an
	// unknown name gives ErrName.
	TraversePMNS(name string) ([]string, error)
}

// WalkChildren is Traverse by walking ctx's Children, depth first.
func WalkChildren(ctx Context, name string, fn func(name string) error) error {
	kids, err := ctx.Children(name)
	if err != nil {
		return err
	}
	if len(kids) == 0 {
		if name == "" {
			return nil
		}
		return fn(name)
	}
	for _, k := range kids {
		full := k.Name
		if name != "" {
			full = name + "." + k.Name
		}
		if k.Leaf {
			if err := fn(full); err != nil {
				return err
			}
			continue
		}
		if err := WalkChildren(ctx, full, fn); err != nil {
			return err
		}
	}
	return nil
}
