package translate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mut2cel/mut2cel/decl"
)

// The three schema extensions mut2cel compiles.
const (
	extMutability    = decl.ExtMutability
	extKeyMutability = decl.ExtKeyMutability
	extUpdate        = decl.ExtUpdate
)

// mutability is the value of either extension.
type mutability string

const (
	unset      mutability = ""
	immutable  mutability = "Immutable"
	addOnly    mutability = "AddOnly"
	removeOnly mutability = "RemoveOnly"
)

// declaration is what one schema node declares: the KEP values and the
// update constraints (semantics.md 9), each kept as written so that
// messages name the declaration the user wrote.
type declaration struct {
	mutability    mutability
	keyMutability mutability
	update        decl.Constraints
}

// schemaStep is one step from a schema node to a child schema node.
type schemaStep struct {
	kind stepKind
	name string // property name, for stepProperty
}

type stepKind int

const (
	stepProperty stepKind = iota // properties[name]
	stepItems                    // items
	stepValues                   // additionalProperties
)

// schemaPath is a path of steps from the schema root.
type schemaPath []schemaStep

// key renders p unambiguously, for use as a map key.
func (p schemaPath) key() string {
	var b strings.Builder
	for _, s := range p {
		switch s.kind {
		case stepProperty:
			fmt.Fprintf(&b, "/p%q", s.name)
		case stepItems:
			b.WriteString("/i")
		case stepValues:
			b.WriteString("/v")
		}
	}
	return b.String()
}

// docPath renders p as a document path below the schema root document path.
func (p schemaPath) docPath(root []interface{}) []interface{} {
	out := append([]interface{}{}, root...)
	for _, s := range p {
		switch s.kind {
		case stepProperty:
			out = append(out, "properties", s.name)
		case stepItems:
			out = append(out, "items")
		case stepValues:
			out = append(out, "additionalProperties")
		}
	}
	return out
}

func (p schemaPath) child(s schemaStep) schemaPath {
	return append(append(schemaPath{}, p...), s)
}

// readDeclarations collects the declarations of a raw openAPIV3Schema and
// checks where they stand (semantics.md 1.1). rootPath is the document path of
// the schema. Problems are returned sorted; the declarations map is keyed by
// schemaPath.key().
func readDeclarations(raw map[string]interface{}, rootPath []interface{}) (map[string]declaration, []Problem) {
	r := &declReader{rootPath: rootPath, decls: map[string]declaration{}}
	r.walk(raw, nil, rootPath, walkState{root: true})
	sort.SliceStable(r.problems, func(i, j int) bool { return r.problems[i].Field() < r.problems[j].Field() })
	return r.decls, r.problems
}

type declReader struct {
	rootPath []interface{}
	decls    map[string]declaration
	problems []Problem
}

// walkState says what surrounds the node being read.
type walkState struct {
	root       bool // the schema root
	inMetadata bool // the root's metadata or below
	inJunctor  bool // inside allOf, anyOf, oneOf or not
	entry      bool // an items or additionalProperties schema
}

func (r *declReader) problem(path []interface{}, format string, args ...interface{}) {
	r.problems = append(r.problems, Problem{Path: append([]interface{}{}, path...), Detail: fmt.Sprintf(format, args...)})
}

func (r *declReader) walk(raw map[string]interface{}, sp schemaPath, dp []interface{}, st walkState) {
	d := r.readNode(raw, dp, st)
	if d != (declaration{}) && !st.inJunctor {
		r.decls[sp.key()] = d
	}
	if props, ok := raw["properties"].(map[string]interface{}); ok {
		for _, name := range sortedKeys(props) {
			child, ok := props[name].(map[string]interface{})
			if !ok {
				continue
			}
			cst := walkState{inMetadata: st.inMetadata || (st.root && name == "metadata"), inJunctor: st.inJunctor}
			r.walk(child, sp.child(schemaStep{stepProperty, name}), appendPath(dp, "properties", name), cst)
		}
	}
	if items, ok := raw["items"].(map[string]interface{}); ok {
		r.walk(items, sp.child(schemaStep{kind: stepItems}), appendPath(dp, "items"), walkState{inMetadata: st.inMetadata, inJunctor: st.inJunctor, entry: true})
	}
	if values, ok := raw["additionalProperties"].(map[string]interface{}); ok {
		r.walk(values, sp.child(schemaStep{kind: stepValues}), appendPath(dp, "additionalProperties"), walkState{inMetadata: st.inMetadata, inJunctor: st.inJunctor, entry: true})
	}
	for _, junctor := range []string{"allOf", "anyOf", "oneOf"} {
		branches, _ := raw[junctor].([]interface{})
		for i, b := range branches {
			if bm, ok := b.(map[string]interface{}); ok {
				r.walk(bm, sp, appendPath(dp, junctor, i), walkState{inMetadata: st.inMetadata, inJunctor: true})
			}
		}
	}
	if not, ok := raw["not"].(map[string]interface{}); ok {
		r.walk(not, sp, appendPath(dp, "not"), walkState{inMetadata: st.inMetadata, inJunctor: true})
	}
}

// readNode reads and checks the declarations of one node.
func (r *declReader) readNode(raw map[string]interface{}, dp []interface{}, st walkState) declaration {
	var d declaration
	if v, present := raw[extUpdate]; present {
		d.update = r.readUpdate(raw, v, appendPath(dp, extUpdate), st)
	}
	for _, ext := range []string{extMutability, extKeyMutability} {
		v, present := raw[ext]
		if !present {
			continue
		}
		p := appendPath(dp, ext)
		m, ok := parseMutability(v)
		switch {
		case !ok:
			r.problem(p, "Unsupported value: %s: supported values: %q, %q, %q", quoteValue(v), immutable, addOnly, removeOnly)
			continue
		case st.misplaced() != "":
			r.problem(p, "%s", st.misplaced())
			continue
		}
		if ext == extMutability {
			if isCollection(raw) && m != immutable {
				r.problem(p, "Forbidden: %s is not allowed on a list or map itself: use %s on it, or put %s on its items schema", m, extKeyMutability, extMutability)
				continue
			}
			d.mutability = m
		} else {
			if !isCollection(raw) {
				r.problem(p, "Forbidden: only allowed on a list (type: array) or a map (additionalProperties)")
				continue
			}
			d.keyMutability = m
		}
	}
	return d
}

// readUpdate reads and checks x-kubernetes-update (semantics.md 9.2).
func (r *declReader) readUpdate(raw map[string]interface{}, v interface{}, p []interface{}, st walkState) decl.Constraints {
	c, err := decl.ParseUpdate(v)
	switch {
	case err != nil:
		r.problem(p, "Invalid value: %v", err)
	case st.misplaced() != "":
		r.problem(p, "%s", st.misplaced())
	case st.entry && c&decl.Presence != 0:
		r.problem(p, "Forbidden: %s on list items or map values: an entry that appears or disappears is a key of its collection: declare NoAddItem or NoRemoveItem on the collection", c&decl.Presence)
	case c&decl.KeyConstraints != 0 && !isCollection(raw):
		r.problem(p, "Forbidden: %s only allowed on a list (type: array) or a map (additionalProperties)", c&decl.KeyConstraints)
	default:
		return c
	}
	return 0
}

// misplaced says why no declaration may stand where st is (semantics.md
// 1.1.2 and 1.1.5), or "" when one may.
func (st walkState) misplaced() string {
	switch {
	case st.root:
		return "Forbidden: not allowed on the schema root: declare the fields below it"
	case st.inMetadata:
		return "Forbidden: not allowed in metadata: the apiserver owns object metadata"
	case st.inJunctor:
		return "Forbidden: not allowed inside allOf, anyOf, oneOf or not: declare it on the field's own schema"
	}
	return ""
}

func parseMutability(v interface{}) (mutability, bool) {
	s, ok := v.(string)
	if !ok {
		return unset, false
	}
	switch m := mutability(s); m {
	case immutable, addOnly, removeOnly:
		return m, true
	}
	return unset, false
}

// isCollection reports whether a raw schema node is a list or a map: the only
// nodes with keys (semantics.md 1.1.3, 1.1.4).
func isCollection(raw map[string]interface{}) bool {
	if raw["type"] == "array" {
		return true
	}
	_, isMap := raw["additionalProperties"].(map[string]interface{})
	return raw["type"] == "object" && isMap
}

func quoteValue(v interface{}) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%v", v)
}

func sortedKeys(m map[string]interface{}) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func appendPath(p []interface{}, steps ...interface{}) []interface{} {
	return append(append(make([]interface{}, 0, len(p)+len(steps)), p...), steps...)
}
