package apiserver

import (
	"encoding/json"
	"strconv"
	"strings"
)

// keepFloats returns v with every float64 replaced by a JSON number that
// reads back as a float: 1.0 stays 1.0 rather than becoming 1. The
// apiserver decodes a number without a fraction or exponent as an integer,
// and a stored object that holds 1.0 where the schema says integer (a
// client sent it so) must reach the server as such, since the rules see
// the difference (docs/semantics.md 2.4).
func keepFloats(v interface{}) interface{} {
	switch x := v.(type) {
	case float64:
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return json.Number(s)
	case map[string]interface{}:
		out := make(map[string]interface{}, len(x))
		for k, e := range x {
			out[k] = keepFloats(e)
		}
		return out
	case []interface{}:
		out := make([]interface{}, len(x))
		for i, e := range x {
			out[i] = keepFloats(e)
		}
		return out
	}
	return v
}
