package batch

import (
	"fmt"
	"strings"
)

// Diagnostic is one reason a run fails, printed as
//
//	FILE:LINE: document N (Kind/name): FIELD: DETAIL
//
// leaving out the parts that are unknown.
type Diagnostic struct {
	File   string
	Line   int    // 0 when unknown
	Doc    int    // document number from 1; 0 when not about one document
	Object string // Kind/name of the document
	Field  string // schema path, as the apiserver prints it
	Detail string
}

func (d Diagnostic) String() string {
	var b strings.Builder
	if d.File != "" {
		b.WriteString(d.File)
		if d.Line > 0 {
			fmt.Fprintf(&b, ":%d", d.Line)
		}
		b.WriteString(": ")
	}
	if d.Doc > 0 {
		fmt.Fprintf(&b, "document %d", d.Doc)
		if d.Object != "" {
			fmt.Fprintf(&b, " (%s)", d.Object)
		}
		b.WriteString(": ")
	}
	if d.Field != "" {
		b.WriteString(d.Field + ": ")
	}
	b.WriteString(d.Detail)
	return b.String()
}

// objectName returns "Kind/name" of a decoded manifest, or what it has of it.
func objectName(doc map[string]interface{}) string {
	kind, _ := doc["kind"].(string)
	meta, _ := doc["metadata"].(map[string]interface{})
	name, _ := meta["name"].(string)
	switch {
	case kind != "" && name != "":
		return kind + "/" + name
	case kind != "":
		return kind
	}
	return name
}
