package reference

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mut2cel/mut2cel/decl"
)

// Schema keys the checker reads. The names of the declarations are the
// model's (decl.Kinds); what they mean and where they may stand the
// checker decides here, apart from the translator.
const (
	extMutability    = decl.ExtMutability
	extKeyMutability = decl.ExtKeyMutability
	extListType      = "x-kubernetes-list-type"
	extListMapKeys   = "x-kubernetes-list-map-keys"
)

// The three values both extensions accept (semantics.md 1).
const (
	immutable  = "Immutable"
	addOnly    = "AddOnly"
	removeOnly = "RemoveOnly"
)

var supportedValues = []string{immutable, addOnly, removeOnly}

// validValue returns v when it is one of the three values, else "". Values
// are case-sensitive.
func validValue(v interface{}) string {
	s, _ := v.(string)
	for _, ok := range supportedValues {
		if s == ok {
			return s
		}
	}
	return ""
}

// narrowing reports whether a mutability value restricts keys when it sits
// on an items or additionalProperties schema (semantics.md 3.3).
func narrowing(value string) bool {
	return value == addOnly || value == removeOnly
}

// checkDeclarations records every rule of semantics.md 1.1 (and 9.2 for
// x-kubernetes-update) that a declaration on raw breaks. A declaration that may not be there at all
// (root, metadata, junctor) is not also checked against its kind of node:
// the fix is to remove it, whatever the node.
func (p *parser) checkDeclarations(raw map[string]interface{}, path *field.Path, at where) {
	for _, ext := range []string{extMutability, extKeyMutability} {
		v, ok := raw[ext]
		if !ok {
			continue
		}
		declPath := path.Child(ext)
		if validValue(v) == "" {
			p.errs = append(p.errs, errUnsupported(declPath, v))
		}
		if err := misplaced(declPath, at); err != nil {
			p.errs = append(p.errs, err)
			continue
		}
		if err := wrongNode(declPath, ext, validValue(v), raw); err != nil {
			p.errs = append(p.errs, err)
		}
	}
	if v, ok := raw[extUpdate]; ok {
		p.checkUpdateDeclaration(v, path.Child(extUpdate), at, raw)
	}
	p.checkFormatsModifier(raw, path, at)
}

// misplaced applies 1.1.2 and 1.1.5; the root wins over metadata, metadata
// over junctors, so each declaration gets one placement error.
func misplaced(path *field.Path, at where) *field.Error {
	switch {
	case at.root:
		return errOnRoot(path)
	case at.metadata:
		return errInMetadata(path)
	case at.junctor:
		return errInJunctor(path)
	}
	return nil
}

// wrongNode applies 1.1.3 and 1.1.4, which depend on the declared node's type.
func wrongNode(path *field.Path, ext, value string, raw map[string]interface{}) *field.Error {
	array, isMap := isArray(raw), isMapSchema(raw)
	switch {
	case ext == extKeyMutability && !array && !isMap:
		return errKeysOnNonCollection(path)
	case ext == extMutability && narrowing(value) && array:
		return errNarrowingOnCollection(path, value, "items")
	case ext == extMutability && narrowing(value) && isMap:
		return errNarrowingOnCollection(path, value, "additionalProperties")
	}
	return nil
}

func isArray(raw map[string]interface{}) bool {
	return raw["type"] == "array"
}

// isMapSchema is type: object with an additionalProperties schema; the
// booleans true and false are not schemas (semantics.md 1.1.3).
func isMapSchema(raw map[string]interface{}) bool {
	_, ok := raw["additionalProperties"].(map[string]interface{})
	return raw["type"] == "object" && ok
}
