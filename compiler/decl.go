package compiler

import (
	"errors"
	"fmt"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/plan"
)

// The schema extensions mut2cel compiles.
const (
	extMutability    = decl.ExtMutability
	extKeyMutability = decl.ExtKeyMutability
	extUpdate        = decl.ExtUpdate
	extUnions        = decl.ExtUnions
)

// formatsKind is the modifier's kind, whose check its placement uses.
var formatsKind, _ = decl.KindNamed(decl.ExtFormats)

// mutability is the value of either KEP extension.
type mutability = plan.Mode

const (
	unset      mutability = ""
	immutable             = plan.Immutable
	addOnly               = plan.AddOnly
	removeOnly            = plan.RemoveOnly
)

// declaration is what one schema node declares: the KEP values and the
// update constraints (semantics.md 9), each kept as written so that
// messages name the declaration the user wrote. It is the compiler's view
// of the decl.Declarations on one node.
type declaration struct {
	mutability    mutability
	keyMutability mutability
	update        decl.Constraints
	// formats: the declarations of the node compare formatted strings
	// as the apiserver's CEL values (decl.ExtFormats).
	formats bool
	unions  []decl.Union
}

// add takes one checked declaration into the node's view.
func (d *declaration) add(x decl.Declaration) {
	switch x.Ext {
	case extMutability:
		d.mutability = mutability(x.Value)
	case extKeyMutability:
		d.keyMutability = mutability(x.Value)
	case extUpdate:
		d.update, _ = decl.ParseConstraints(x.Value)
	case decl.ExtFormats:
		d.formats = x.Value == decl.CompareAsValues
	case extUnions:
		d.unions, _ = decl.ParseUnionsText(x.Value)
	}
}

// schemaDeclarations is the front end for declarations written in the
// schema of version v. It reads every node reachable through properties,
// items, additionalProperties and the junctors (crd.Version.WalkAll), and
// returns the declarations whose values read, with their paths. A value
// that does not read, any declaration inside allOf, anyOf, oneOf or not
// (where no path can name it), and a key that misspells an extension, is
// a problem at its place; where the others may stand is checked with
// those of every front end (checkPlacement).
func schemaDeclarations(crdName string, v *crd.Version) ([]decl.Declaration, []Problem) {
	r := &schemaReader{crd: crdName, version: v.Name, root: v.Root()}
	v.WalkAll(r.readNode)
	return r.decls, append(r.problems, r.typos...)
}

type schemaReader struct {
	crd, version string
	root         []interface{}
	decls        []decl.Declaration
	problems     []Problem
	// typos are the keys that misspell an extension (CheckSpelling).
	typos []Problem
}

// readNode reads the declarations of one node, in the order of
// decl.Kinds, and notes the keys that misspell one.
func (r *schemaReader) readNode(dp []interface{}, raw map[string]interface{}, inJunctor bool) {
	r.typos = append(r.typos, misspeltKeys(raw, dp)...)
	for _, k := range decl.Kinds {
		v, present := raw[k.Name]
		if !present {
			continue
		}
		at := appendPath(dp, k.Name)
		value, err := k.Read(v)
		switch {
		case err != nil:
			r.problems = append(r.problems, valueProblem(k, v, err).At(at))
		case inJunctor:
			r.problems = append(r.problems, errInJunctor().At(at))
		default:
			r.decls = append(r.decls, decl.Declaration{
				CRD: r.crd, Version: r.version, Path: decl.PathOf(dp[len(r.root):]),
				Ext: k.Name, Value: value, Origin: decl.Origin{Kind: decl.InSchema},
			})
		}
	}
}

// valueProblem says why a value written in a schema does not read. A KEP
// value must be one of the three (checkPlacement says so for every front
// end); in the schema only its type is checked.
func valueProblem(k decl.Kind, v interface{}, err error) Problem {
	var unsupported *decl.UnsupportedValue
	switch {
	case k.Name == decl.ExtFormats:
		return errFormatsValue(v)
	case errors.As(err, &unsupported):
		return errUnsupportedKEP(v)
	}
	return errUpdateValue(err)
}

// checkPlacement says why declaration d cannot stand on its schema node
// raw (semantics.md 1.1 and 9.2, and Unions), if it cannot. Every front end's
// declarations pass here, so that the rules and their wording are one.
func checkPlacement(d decl.Declaration, raw map[string]interface{}) (Problem, bool) {
	if d.Ext == extUnions {
		return unionPlacement(d, raw)
	}
	if d.Ext == decl.ExtFormats {
		if err := formatsKind.Check(d.Value); err != nil {
			return errFormatsValue(d.Value), true
		}
		return misplaced(d.Path)
	}
	if d.Ext == extUpdate {
		c, _ := decl.ParseConstraints(d.Value)
		if p, bad := misplaced(d.Path); bad {
			return p, true
		}
		switch {
		case d.Path.IsEntry() && c&decl.Presence != 0:
			return errPresenceOnEntry(c & decl.Presence), true
		case c&decl.KeyConstraints != 0 && !isCollection(raw):
			return errItemConstraintsOnNonCollection(c & decl.KeyConstraints), true
		}
		return Problem{}, false
	}
	m := mutability(d.Value)
	if m != immutable && m != addOnly && m != removeOnly {
		return errUnsupportedKEP(d.Value), true
	}
	if p, bad := misplaced(d.Path); bad {
		return p, true
	}
	switch {
	case d.Ext == extMutability && isCollection(raw) && m != immutable:
		entries := "additionalProperties"
		if raw["type"] == "array" {
			entries = "items"
		}
		return errNarrowingOnCollection(m, entries), true
	case d.Ext == extKeyMutability && !isCollection(raw):
		return errKeysOnNonCollection(), true
	}
	return Problem{}, false
}

// misplaced says why no declaration may stand at p (semantics.md 1.1.2),
// if none may.
func misplaced(p decl.Path) (Problem, bool) {
	switch {
	case len(p) == 0:
		return errOnRoot(), true
	case !p[0].Entries && p[0].Name == "metadata":
		return errInMetadata(), true
	}
	return Problem{}, false
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

func appendPath(p []interface{}, steps ...interface{}) []interface{} {
	return append(append(make([]interface{}, 0, len(p)+len(steps)), p...), steps...)
}
