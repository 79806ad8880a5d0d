package markers

import (
	"fmt"
	"go/ast"
	"strconv"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// validation-gen's stability wrappers: +k8s:alpha(since: "1.35")=+TAG and
// +k8s:beta(since: "1.36")=+TAG say from which Kubernetes release the
// apiserver enforces TAG at that level of stability (validation-gen's lint
// asks for them on tags that are not yet stable, and k8s.io/api v0.37.2
// wraps +k8s:unionMember so). They say when Kubernetes' own apiserver
// enforces the tag, not what it means: mut2cel reads the wrapped tag as
// written bare. A wrapper of another form is an error, never skipped.
const (
	tagK8sAlpha = "k8s:alpha"
	tagK8sBeta  = "k8s:beta"
)

func isStabilityWrapper(name string) bool { return name == tagK8sAlpha || name == tagK8sBeta }

// innerTag is the tag a wrapper holds, split as splitTag splits.
type innerTag struct {
	name, args, value string
	hasArgs           bool
}

// unwrap reads the wrapper name(args)=value: args must be since: "X.Y",
// value the wrapped tag.
func unwrap(name, args string, hasArgs bool, value string) (innerTag, error) {
	key, since, ok := strings.Cut(args, ":")
	since = strings.TrimSpace(since)
	if uq, err := strconv.Unquote(since); err == nil {
		since = uq
	} else if strings.ContainsAny(since, `,:" `) {
		ok = false // more than one argument, or a broken string
	}
	if !hasArgs || !ok || strings.TrimSpace(key) != "since" || since == "" {
		return innerTag{}, fmt.Errorf("+%s takes one argument, since: \"1.36\", and the tag it wraps after =, as in +%s(since: \"1.36\")=+%s", name, name, tagK8sMember)
	}
	if !strings.HasPrefix(value, "+") {
		return innerTag{}, fmt.Errorf("+%s wraps a tag: write it after =, as in +%s(since: %q)=+%s", name, name, since, tagK8sMember)
	}
	var t innerTag
	t.name, t.args, t.hasArgs, t.value = splitTag(value[1:])
	if isStabilityWrapper(t.name) {
		return innerTag{}, fmt.Errorf("+%s wraps another stability wrapper: wrap the tag itself", name)
	}
	return t, nil
}

// closingParen is the index of the parenthesis that closes the one s
// starts with, outside double-quoted strings; -1 where there is none.
func closingParen(s string) int {
	depth, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// isPointer says whether the Go type expression e is a pointer: a field
// of a pointer type is unset where nil, which JSON says by absence or
// null; one of a value type (string, int32, bool, []T, map[K]V, or a type
// named for one) is unset, as validation-gen's union functions test it,
// at its zero value (== "", == 0, len() == 0), which a union says with
// zeroIsUnset. The schema the field lands on tells which zero
// (valueMemberZero).
func isPointer(e ast.Expr) bool {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			break
		}
		e = p.X
	}
	_, ok := e.(*ast.StarExpr)
	return ok
}

// valueMemberZero says why a member of a Go value type, whose schema is
// p, cannot be read at its zero value, or "": a struct (or a type such as
// metav1.Time or resource.Quantity, which marshals as a string or a
// number) is zero where every field is, which no one JSON value says.
func valueMemberZero(p apiextensionsv1.JSONSchemaProps) string {
	switch {
	case p.XIntOrString:
		return "its schema is int-or-string, whose zero values are two"
	case p.Type == "object" && (p.AdditionalProperties == nil || p.AdditionalProperties.Schema == nil):
		return "it is a struct, zero where every field is, which no one JSON value says"
	case p.Type == "string" && (p.Format == "date" || p.Format == "date-time" || p.Format == "duration" || p.Format == "byte"):
		return "its schema is a string of format " + p.Format + ", which the apiserver's CEL reads as another type"
	case p.Type == "":
		return "its schema has no type"
	}
	return ""
}
