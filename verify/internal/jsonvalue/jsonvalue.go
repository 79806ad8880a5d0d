package jsonvalue

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Canonical renders a decoded JSON value with sorted keys and numbers by
// value, so equal values render equally.
func Canonical(v interface{}) string {
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
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case nil:
		b.WriteString("null")
	default:
		if n, ok := NumberOf(v); ok {
			b.WriteString(n.String())
			return
		}
		// Not a JSON value; never produced by decoding, written to
		// stay total.
		data, err := json.Marshal(v)
		if err != nil {
			data = []byte(fmt.Sprint(v))
		}
		b.Write(data)
	}
}

// Copy copies maps and lists; scalars are immutable.
func Copy(v interface{}) interface{} {
	switch x := v.(type) {
	case map[string]interface{}:
		return CopyMap(x)
	case []interface{}:
		out := make([]interface{}, len(x))
		for i, e := range x {
			out[i] = Copy(e)
		}
		return out
	}
	return v
}

// CopyMap is Copy of an object.
func CopyMap(m map[string]interface{}) map[string]interface{} {
	out := make(map[string]interface{}, len(m))
	for k, e := range m {
		out[k] = Copy(e)
	}
	return out
}
