package pmapi

// Traverse calls fn with the full name of every leaf at or below name in
// ctx's namespace ("" is the root), depth first in namespace order, as
// pmTraversePMNS does. A leaf name given as name is passed to fn itself.
func Traverse(ctx Context, name string, fn func(name string) error) error {
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
		if err := Traverse(ctx, full, fn); err != nil {
			return err
		}
	}
	return nil
}
