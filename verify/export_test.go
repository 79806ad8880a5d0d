package verify

import (
	"encoding/json"
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/mut2cel/mut2cel/internal/kube"
)

// UnionPairStats counts what the pairs of GenerateUnionPairs did to the
// unions of their schema.
type UnionPairStats struct {
	Pairs int
	// Kinds counts the violations of unions the checker reported, by
	// kind, on create of the new object and on the update.
	Kinds map[string]int
	// Shapes counts the instances of union nodes in new objects by what
	// they hold: "members: 0", "members: 1", "members: 2+", "null member",
	// and with a discriminator "selects a member", "selects none" (a
	// value of no member) or "unset".
	Shapes map[string]int
}

// GenerateUnionPairs makes pairs for one version schema, raw with its
// declarations, as Verify's generator does, and judges each with the
// checker, on create and on update, through the storage pipeline.
func GenerateUnionPairs(raw map[string]interface{}, seed int64, pairs int) (UnionPairStats, error) {
	st := UnionPairStats{Kinds: map[string]int{}, Shapes: map[string]int{}}
	c, err := NewChecker(raw)
	if err != nil {
		return st, err
	}
	data, err := json.Marshal(raw)
	if err != nil {
		return st, err
	}
	props := &apiextensionsv1.JSONSchemaProps{}
	if err := json.Unmarshal(data, props); err != nil {
		return st, err
	}
	s, err := kube.Structural(props)
	if err != nil {
		return st, fmt.Errorf("structural: %w", err)
	}
	g := newPairGenerator(s, seed, c.declaredPaths())
	g.useUnions(c)
	for i := 0; i < pairs; i++ {
		old, new := g.Next()
		old, new = kube.Store(s, old), kube.Store(s, new)
		st.Pairs++
		for _, v := range append(c.CheckCreate(new), c.Check(old, new)...) {
			st.Kinds[v.Kind]++
		}
		countShapes(c.root, new, st.Shapes)
	}
	return st, nil
}

// countShapes adds the union nodes at and below n in v to shapes.
func countShapes(n *node, v interface{}, shapes map[string]int) {
	if n == nil {
		return
	}
	switch x := v.(type) {
	case map[string]interface{}:
		for _, u := range n.unions {
			present, null := 0, false
			for _, m := range u.members {
				value, found := x[m.name]
				null = null || found && value == nil
				if value != nil {
					present++
				}
			}
			shapes[fmt.Sprintf("members: %s", []string{"0", "1", "2+"}[min(present, 2)])]++
			if null {
				shapes["null member"]++
			}
			if u.discriminator != "" {
				d, set := x[u.discriminator].(string)
				_, selects := u.selected(d)
				switch {
				case !set:
					shapes["unset"]++
				case selects:
					shapes["selects a member"]++
				default:
					shapes["selects none"]++
				}
			}
		}
		for k, e := range x {
			countShapes(n.child(k), e, shapes)
		}
	case []interface{}:
		for _, e := range x {
			countShapes(n.items, e, shapes)
		}
	}
}
