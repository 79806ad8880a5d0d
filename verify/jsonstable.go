package verify

import "unicode/utf8"

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
