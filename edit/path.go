package edit

import (
	"github.com/mut2cel/mut2cel/internal/diag"
	"strconv"
	"strings"
)

// Render prints a document path as the apiserver prints field paths:
// schema keywords as fields, property names and map keys in brackets, e.g.
// spec.versions[0].schema.openAPIV3Schema.properties[spec]. The empty path
// is "the document root". The rendering is diag's, so that problems and
// edits print paths alike.
func Render(path []interface{}) string { return diag.RenderPath(path) }

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
