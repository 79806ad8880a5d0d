package edit

import (
	"fmt"
	"strconv"
	"strings"
)

// Render prints a document path as the apiserver prints field paths:
// schema keywords as fields, property names and map keys in brackets, e.g.
// spec.versions[0].schema.openAPIV3Schema.properties[spec]. The empty path
// is "the document root".
func Render(path []interface{}) string {
	if len(path) == 0 {
		return "the document root"
	}
	var b strings.Builder
	inKeyed := false // the previous key was properties/additionalProperties-like
	for i, step := range path {
		switch s := step.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", s)
			inKeyed = false
		case string:
			if inKeyed {
				fmt.Fprintf(&b, "[%s]", s)
				inKeyed = false
				continue
			}
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s)
			inKeyed = s == "properties" || s == "definitions" || s == "patternProperties"
		}
	}
	return b.String()
}

// Pointer renders a document path as a JSON pointer (RFC 6901), the way
// JSON patches address it: /spec/versions/0/name. The empty path is "",
// the whole document.
func Pointer(path []interface{}) string {
	var b strings.Builder
	for _, step := range path {
		b.WriteByte('/')
		switch s := step.(type) {
		case int:
			b.WriteString(strconv.Itoa(s))
		case string:
			b.WriteString(PointerToken(s))
		}
	}
	return b.String()
}

// PointerToken writes a mapping key as one token of a JSON pointer.
func PointerToken(key string) string {
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}
