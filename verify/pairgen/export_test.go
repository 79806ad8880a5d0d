package pairgen

import (
	"encoding/json"
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
	"github.com/mut2cel/mut2cel/verify/reference"
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
	c, err := reference.NewChecker(raw)
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
	g := NewDeclared(s, seed, c)
	for i := 0; i < pairs; i++ {
		old, new := g.Next()
		old, new = kube.Store(s, old), kube.Store(s, new)
		st.Pairs++
		for _, v := range append(c.CheckCreate(new), c.Check(old, new)...) {
			st.Kinds[v.Kind]++
		}
		countShapes(c, new, st.Shapes)
	}
	return st, nil
}

// countShapes adds the instances of the unions of c in v, an object of
// its schema, to shapes.
func countShapes(c *reference.Checker, v interface{}, shapes map[string]int) {
	for _, u := range c.Unions() {
		for _, obj := range instances(v, u.Path) {
			countShape(u, obj, shapes)
		}
	}
}

// instances lists the objects at path in v: every list item and map value
// where it steps into entries.
func instances(v interface{}, path schemapath.Path) []map[string]interface{} {
	if len(path) == 0 {
		if obj, ok := v.(map[string]interface{}); ok {
			return []map[string]interface{}{obj}
		}
		return nil
	}
	var out []map[string]interface{}
	switch x := v.(type) {
	case map[string]interface{}:
		switch st := path[0]; st.Kind {
		case schemapath.Property:
			if e, ok := x[st.Name]; ok {
				out = instances(e, path[1:])
			}
		case schemapath.Values:
			for _, e := range x {
				out = append(out, instances(e, path[1:])...)
			}
		}
	case []interface{}:
		if path[0].Kind == schemapath.Items {
			for _, e := range x {
				out = append(out, instances(e, path[1:])...)
			}
		}
	}
	return out
}

// countShape adds one instance x of the union u to shapes.
func countShape(u reference.Union, x map[string]interface{}, shapes map[string]int) {
	present, null := 0, false
	for _, m := range u.Members {
		value, found := x[m.Name]
		null = null || found && value == nil
		if value != nil {
			present++
		}
	}
	shapes[fmt.Sprintf("members: %s", []string{"0", "1", "2+"}[min(present, 2)])]++
	if null {
		shapes["null member"]++
	}
	if u.Discriminator == "" {
		return
	}
	d, set := x[u.Discriminator].(string)
	switch {
	case !set:
		shapes["unset"]++
	case selects(u, d):
		shapes["selects a member"]++
	default:
		shapes["selects none"]++
	}
}

// selects reports whether the discriminator value d selects a member of
// u.
func selects(u reference.Union, d string) bool {
	for _, m := range u.Members {
		if m.Value == d {
			return true
		}
	}
	return false
}
