package policy

import (
	"fmt"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
)

// variables are the policy's variables: values several validations read,
// each named once and evaluated at most once per request (the apiserver
// evaluates a variable lazily, on its first use, and keeps its value), so
// that a validation reads variables.containers where it would repeat the
// whole walk from object.
type variables struct {
	list   []admissionregistrationv1.Variable
	byExpr map[string]string // expression -> name
	taken  map[string]bool
}

// named returns the variable that holds expr, the value at path of the
// new object, or with old of the old one, with a suffix saying what of
// it, added where there is none yet. Its name is made of the last
// properties of path, as few as tell it from the other variables:
// containers, old_containers, old_containers_by_name.
func (v *variables) named(path []string, old bool, suffix, expr string) string {
	if name, ok := v.byExpr[expr]; ok {
		return "variables." + name
	}
	words := func(n int) []string {
		var w []string
		if old {
			w = append(w, "old")
		}
		w = append(w, path[len(path)-n:]...)
		if suffix != "" {
			w = append(w, suffix)
		}
		return w
	}
	name := ""
	for n := 1; n <= len(path) && (name == "" || v.taken[name]); n++ {
		name = identifier(words(n))
	}
	for i := 2; name == "" || v.taken[name]; i++ {
		name = fmt.Sprintf("%s_%d", identifier(words(len(path))), i)
	}
	v.taken[name] = true
	v.byExpr[expr] = name
	v.list = append(v.list, admissionregistrationv1.Variable{Name: name, Expression: expr})
	return "variables." + name
}

// identifier makes a variable name of words: their letters and digits,
// each run of other characters a single _, never starting with a digit.
// A name with __ would be read as an escape (variables are selected like
// properties, through CEL's escaping).
func identifier(words []string) string {
	var parts []string
	for _, w := range words {
		var b strings.Builder
		for _, r := range w {
			switch {
			case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
				b.WriteRune(r)
			case b.Len() > 0 && !strings.HasSuffix(b.String(), "_"):
				b.WriteByte('_')
			}
		}
		if part := strings.TrimSuffix(b.String(), "_"); part != "" {
			parts = append(parts, part)
		}
	}
	name := strings.Join(parts, "_")
	if name == "" || name[0] >= '0' && name[0] <= '9' || !plainName(name) {
		name = "v_" + name
	}
	return name
}
