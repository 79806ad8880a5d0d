package verify

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// canonicalJSON renders a decoded JSON value with sorted keys and numbers
// by value, so equal values render equally.
func canonicalJSON(v interface{}) string {
	var b strings.Builder
	writeJSON(&b, v)
	return b.String()
}

func writeJSON(b *strings.Builder, v interface{}) {
	switch x := v.(type) {
	case map[string]interface{}:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for _, k := range keys {
			b.WriteString(strconv.Quote(k) + ":")
			writeJSON(b, x[k])
			b.WriteByte(',')
		}
		b.WriteByte('}')
	case []interface{}:
		b.WriteByte('[')
		for _, e := range x {
			writeJSON(b, e)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case string:
		b.WriteString(strconv.Quote(x))
	default:
		if n, ok := number(v); ok {
			b.WriteString(n.String())
			return
		}
		b.WriteString(shown(v)) // true, false, null
	}
}

// deepCopyValue copies maps and lists; scalars are immutable.
func deepCopyValue(v interface{}) interface{} {
	switch x := v.(type) {
	case map[string]interface{}:
		return deepCopyMap(x)
	case []interface{}:
		out := make([]interface{}, len(x))
		for i, e := range x {
			out[i] = deepCopyValue(e)
		}
		return out
	}
	return v
}

func deepCopyMap(m map[string]interface{}) map[string]interface{} {
	out := make(map[string]interface{}, len(m))
	for k, e := range m {
		out[k] = deepCopyValue(e)
	}
	return out
}

// jsonStable reports whether v holds only what a JSON round trip carries
// unchanged: objects, lists, booleans, null, int64 integers, and strings
// and keys of valid UTF-8 (encoding replaces invalid bytes). Floats are
// not: one with an integral value comes back as an integer, which is what
// the round trip of storage is for.
func jsonStable(v interface{}) bool {
	switch x := v.(type) {
	case map[string]interface{}:
		for k, e := range x {
			if !utf8.ValidString(k) || !jsonStable(e) {
				return false
			}
		}
		return true
	case []interface{}:
		for _, e := range x {
			if !jsonStable(e) {
				return false
			}
		}
		return true
	case string:
		return utf8.ValidString(x)
	case bool, int64, nil:
		return true
	}
	return false
}
