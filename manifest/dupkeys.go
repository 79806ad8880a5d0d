package manifest

import (
	yaml "go.yaml.in/yaml/v3"
)

// duplicateKey finds a key that appears twice in one mapping of the
// document, after the YAML 1.1 reading kubectl gives keys (keyString: y,
// Y and 'true' are one key): the decoder keeps only the last, so a
// declaration on the first would vanish without a word. It returns the
// error at the second key's line, nil when there is none. Aliases are not
// followed: the mapping they name is checked where it is written.
func (d *Document) duplicateKey() error {
	var dup, first *yaml.Node
	var key string
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil || dup != nil {
			return
		}
		if n.Kind == yaml.MappingNode {
			seen := map[string]*yaml.Node{}
			for i := 0; i+1 < len(n.Content) && dup == nil; i += 2 {
				k := n.Content[i]
				s, ok := keyString(k)
				if !ok || k.Value == "<<" && k.Style == 0 {
					continue
				}
				if f, twice := seen[s]; twice {
					dup, first, key = k, f, s
					return
				}
				seen[s] = k
			}
		}
		if n.Kind == yaml.AliasNode {
			return
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(d.root)
	if dup == nil {
		return nil
	}
	return d.duplicateKeyError(key, first.Line, dup.Line)
}
