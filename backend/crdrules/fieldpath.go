package crdrules

import (
	"regexp"
	"strings"

	"github.com/mut2cel/mut2cel/crd"
)

var plainFieldName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// fieldPathBetween renders the rule fieldPath from host to target, for
// errors to point at the declared field: .a.b, or ['a.b'] where a name has
// characters the path syntax uses. Only property steps can be named; the
// path stops before the first list item or map value.
func fieldPathBetween(host, target *crd.Node) string {
	var b strings.Builder
	for _, c := range host.Between(target) {
		if !c.IsProperty() {
			break
		}
		name := c.Name()
		if plainFieldName.MatchString(name) {
			b.WriteString("." + name)
			continue
		}
		b.WriteString("['" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(name) + "']")
	}
	return b.String()
}
