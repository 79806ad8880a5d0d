// Package hostile makes decoded JSON objects hostile to a structural
// schema, for the tests of verify's parts that must decide as the
// apiserver does on any value (verify/internal/validity,
// verify/internal/storage): values of the wrong type, nulls, numbers on
// either side of their bounds and out of the range of their format,
// strings one rune too long or short, items and keys repeated, required
// properties removed, unknown ones added. The same seed gives the same
// changes.
package hostile

import (
	"fmt"
	"maps"
	"math"
	"math/rand"
	"slices"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
)

// Change changes v in k places, picked at random, with values on and
// off what the schema s asks for, and returns it.
func Change(rnd *rand.Rand, s *schema.Structural, v interface{}, k int) interface{} {
	for ; k > 0; k-- {
		if w, ok := hostileAt(rnd, s, jsonvalue.Copy(v)).(map[string]interface{}); ok {
			v = w // the root stays an object
		}
	}
	return v
}

func hostileAt(rnd *rand.Rand, s *schema.Structural, v interface{}) interface{} {
	switch x := v.(type) {
	case map[string]interface{}:
		return hostileObject(rnd, s, x)
	case []interface{}:
		return hostileList(rnd, s, x)
	}
	return value(rnd, s)
}

// hostileObject is hostileAt for an object.
func hostileObject(rnd *rand.Rand, s *schema.Structural, x map[string]interface{}) interface{} {
	keys := slices.Sorted(maps.Keys(x))
	switch r := rnd.Intn(10); {
	case r == 0 && len(keys) > 0:
		delete(x, keys[rnd.Intn(len(keys))])
		return x
	case r == 1 && s != nil:
		// a property, present or not
		props := slices.Sorted(maps.Keys(s.Properties))
		if len(props) > 0 {
			p := props[rnd.Intn(len(props))]
			ps := s.Properties[p]
			x[p] = value(rnd, &ps)
			return x
		}
		x["unknown"] = value(rnd, nil)
		return x
	case r == 2:
		x["unknown"+fmt.Sprint(rnd.Intn(3))] = value(rnd, nil)
		return x
	case r < 5 || len(keys) == 0:
		return value(rnd, s)
	}
	k := keys[rnd.Intn(len(keys))]
	x[k] = hostileAt(rnd, childSchema(s, k), x[k])
	return x
}

// hostileList is hostileAt for a list.
func hostileList(rnd *rand.Rand, s *schema.Structural, x []interface{}) interface{} {
	var items *schema.Structural
	if s != nil {
		items = s.Items
	}
	switch r := rnd.Intn(10); {
	case r == 0 && len(x) > 0:
		return append(x, jsonvalue.Copy(x[rnd.Intn(len(x))])) // a repeated item
	case r == 1 && len(x) > 0:
		i := rnd.Intn(len(x))
		return append(x[:i:i], x[i+1:]...)
	case r == 2:
		return append(x, value(rnd, items))
	case r < 4 && len(x) > 1:
		x[0], x[len(x)-1] = x[len(x)-1], x[0]
		return x
	case r < 5 || len(x) == 0:
		return value(rnd, s)
	}
	i := rnd.Intn(len(x))
	x[i] = hostileAt(rnd, items, x[i])
	return x
}

func childSchema(s *schema.Structural, k string) *schema.Structural {
	if s == nil {
		return nil
	}
	if p, ok := s.Properties[k]; ok {
		return &p
	}
	if s.AdditionalProperties != nil {
		return s.AdditionalProperties.Structural
	}
	return nil
}

// value is a value for a node of schema s (nil: any), valid or not.
func value(rnd *rand.Rand, s *schema.Structural) interface{} {
	if s != nil && rnd.Intn(3) > 0 {
		if vs := near(s); len(vs) > 0 {
			return jsonvalue.Copy(vs[rnd.Intn(len(vs))])
		}
	}
	palette := []interface{}{
		nil, true, false, "", "a", "é", "abcdef", "2006-01-02T15:04:05Z", "not a date", "0f8fad5b-d9cb-469f-a165-70867728950e",
		"1", "TCP", int64(0), int64(1), int64(-1), int64(2), int64(math.MaxInt32) + 1, int64(math.MaxInt64),
		float64(1), 1.5, -0.5, 0.25, 1e300, math.MaxFloat32 * 2, float64(1 << 60),
		map[string]interface{}{}, map[string]interface{}{"a": "b"}, []interface{}{}, []interface{}{"a", "a"}, []interface{}{int64(1), float64(1)},
	}
	return jsonvalue.Copy(palette[rnd.Intn(len(palette))])
}

// near lists values on either side of what s asks for.
func near(s *schema.Structural) []interface{} {
	var out []interface{}
	vv := s.ValueValidation
	if vv == nil {
		vv = &schema.ValueValidation{}
	}
	for _, e := range vv.Enum {
		out = append(out, e.Object)
		if f, ok := e.Object.(float64); ok {
			out = append(out, int64(f))
		}
		if i, ok := e.Object.(int64); ok {
			out = append(out, float64(i), fmt.Sprint(i))
		}
	}
	for _, b := range []*float64{vv.Minimum, vv.Maximum, vv.MultipleOf} {
		if b != nil {
			for _, d := range []float64{-1, -0.5, 0, 0.5, 1} {
				out = append(out, *b+d, int64(*b+d))
			}
		}
	}
	for _, b := range []*int64{vv.MinLength, vv.MaxLength} {
		if b != nil {
			for _, d := range []int64{-1, 0, 1} {
				if n := *b + d; n >= 0 && n < 1000 {
					out = append(out, strings.Repeat("é", int(n)), strings.Repeat("a", int(n)))
				}
			}
		}
	}
	out = append(out, nearItemBounds(s, vv)...)
	switch s.Type {
	case "integer":
		out = append(out, int64(3), float64(3), 3.5, int64(math.MaxInt32)+1)
	case "number":
		out = append(out, int64(3), 3.5, math.MaxFloat32*2)
	case "string":
		out = append(out, "x", "2006-01-02T15:04:05Z", "a.b-c")
	}
	return out
}

// nearItemBounds are lists with one item fewer than, as many as and one
// more than the node's bounds on items.
func nearItemBounds(s *schema.Structural, vv *schema.ValueValidation) []interface{} {
	var out []interface{}
	for _, b := range []*int64{vv.MinItems, vv.MaxItems} {
		if b != nil && s.Items != nil {
			for _, d := range []int64{-1, 0, 1} {
				if n := *b + d; n >= 0 && n < 100 {
					l := make([]interface{}, n)
					for i := range l {
						l[i] = value(rand.New(rand.NewSource(int64(i))), s.Items)
					}
					out = append(out, l)
				}
			}
		}
	}
	return out
}
