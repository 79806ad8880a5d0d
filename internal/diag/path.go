package diag

import (
	"fmt"
	"strings"
)

// RenderPath prints a document path as the apiserver prints field paths:
// schema keywords as fields, property names and map keys in brackets, e.g.
// spec.versions[0].schema.openAPIV3Schema.properties[spec]. The empty
// path is "the document root".
func RenderPath(path []interface{}) string {
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
