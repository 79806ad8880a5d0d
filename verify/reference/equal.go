package reference

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
)

// equal is strict equality (semantics.md 2.3) of two values of schema node
// n: lists item by item in order whatever their list type, maps and objects
// key-wise, numbers by value. The schema matters only to tell objects, whose
// null properties are absent, from maps, whose null values are values.
func equal(n *node, a, b interface{}) bool {
	switch x := a.(type) {
	case []interface{}:
		y, ok := b.([]interface{})
		return ok && equalLists(n.itemNode(), x, y)
	case map[string]interface{}:
		y, ok := b.(map[string]interface{})
		return ok && equalMaps(n, x, y)
	case nil, string, bool:
		return a == b
	}
	if x, ok := jsonvalue.NumberOf(a); ok {
		y, ok := jsonvalue.NumberOf(b)
		return ok && x.Equal(y)
	}
	// Not a JSON type; never produced by decoding, compared to stay total.
	return reflect.DeepEqual(a, b)
}

func equalLists(items *node, x, y []interface{}) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if !equal(items, x[i], y[i]) {
			return false
		}
	}
	return true
}

func equalMaps(n *node, x, y map[string]interface{}) bool {
	keepNulls := n.isMap()
	if countKeys(x, keepNulls) != countKeys(y, keepNulls) {
		return false
	}
	for k, v := range x {
		if v == nil && !keepNulls {
			continue
		}
		w, ok := y[k]
		if !ok || !equal(n.child(k), v, w) {
			return false
		}
	}
	return true
}

func countKeys(m map[string]interface{}, keepNulls bool) int {
	c := 0
	for _, v := range m {
		if v != nil || keepNulls {
			c++
		}
	}
	return c
}

// canonical renders a value so that two values of node n are strictly
// equal exactly when their renderings are equal. Keys of sets and list-maps
// are compared as these strings. The form is JSON-like, readable in
// violation details.
func canonical(n *node, v interface{}) string {
	var b strings.Builder
	writeCanonical(&b, n, v)
	return b.String()
}

func writeCanonical(b *strings.Builder, n *node, v interface{}) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		b.WriteString(strconv.Quote(x))
	case []interface{}:
		writeList(b, n.itemNode(), x)
	case map[string]interface{}:
		writeMap(b, n, x)
	default:
		if num, ok := jsonvalue.NumberOf(v); ok {
			b.WriteString(num.String())
			return
		}
		fmt.Fprintf(b, "%T(%#v)", v, v)
	}
}

func writeList(b *strings.Builder, items *node, x []interface{}) {
	b.WriteByte('[')
	for i, e := range x {
		if i > 0 {
			b.WriteByte(',')
		}
		writeCanonical(b, items, e)
	}
	b.WriteByte(']')
}

func writeMap(b *strings.Builder, n *node, x map[string]interface{}) {
	keepNulls := n.isMap()
	keys := make([]string, 0, len(x))
	for k, v := range x {
		if v != nil || keepNulls {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(k))
		b.WriteByte(':')
		writeCanonical(b, n.child(k), x[k])
	}
	b.WriteByte('}')
}
