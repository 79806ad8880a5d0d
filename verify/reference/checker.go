package reference

import (
	"fmt"
	"sort"

	"github.com/mut2cel/mut2cel/crd"
)

// Checker checks updates against the declarations of one CRD version schema.
type Checker struct {
	root *node
	// formatsAsValues: every declaration compares formatted strings as
	// values (CompareFormatsAsValues).
	formatsAsValues bool
}

// NewChecker reads the declarations from the raw openAPIV3Schema of one CRD
// version, decoded from JSON/YAML as map[string]interface{} (so the
// extensions are still present: the typed apiextensions structs drop them).
// It returns an error listing every invalid declaration (semantics.md 1.1,
// 9.2), each with its schema path rendered like the apiserver prints it. The
// error is a k8s.io/apimachinery aggregate, so callers can range over
// Errors().
func NewChecker(schema map[string]interface{}) (*Checker, error) {
	p := &parser{}
	root := p.parse(schema, crd.RootField(), where{root: true})
	if err := p.err(); err != nil {
		return nil, err
	}
	nameNodes(root, nil)
	markFormatted(root)
	markSetItems(root, false)
	markUnions(root)
	return &Checker{root: root}, nil
}

// Check returns every violation of the declarations by the update from old to
// new. Both objects are already in stored form (pruned, defaulted; the caller
// does that). An empty result means the update is allowed.
func (c *Checker) Check(old, new map[string]interface{}) []Violation {
	return c.update(old, new, false).out
}

// CheckCreate returns every violation of the declarations by creating obj,
// in stored form: of the unions, judged on every node (semantics.md,
// "Unions"); the other declarations constrain updates only. An empty
// result means the create is allowed.
func (c *Checker) CheckCreate(obj map[string]interface{}) []Violation {
	w := &walker{formatsAsValues: c.formatsAsValues}
	w.checkUnions(c.root, nil, false, obj, nil, changed())
	sortViolations(w.out)
	return w.out
}

// update walks an update; track asks the walker to list what it
// exercised and broke (CheckExercised).
func (c *Checker) update(old, new map[string]interface{}, track bool) *walker {
	w := &walker{track: track, formatsAsValues: c.formatsAsValues}
	// The root always exists before and after (semantics.md 2.2), and
	// the apiserver correlates the old root with the new one.
	both := pair{old: side{v: old, ok: true}, new: side{v: new, ok: true}}
	w.visit(c.root, both, nil, true, false)
	w.checkUnions(c.root, old, true, new, nil, changed())
	sortViolations(w.out)
	return w
}

// Violation is one denied part of an update.
type Violation struct {
	Path        string // instance path in the object, e.g. spec.ports[2].protocol
	Declaration string // schema path of the declaring node
	Kind        string // "value", "presence", "keys", or a kind of union violation ("union: ...")
	Detail      string // human words: what changed
}

// Kinds of violations, one per rule of semantics.md (3.1, 3.2, 4).
const (
	kindValue    = "value"
	kindPresence = "presence"
	kindKeys     = "keys"
)

func (v Violation) String() string {
	return fmt.Sprintf("%s: %s: %s (declared at %s)", v.Path, v.Kind, v.Detail, v.Declaration)
}

// sortViolations orders by Path, Kind and Declaration as promised; Detail
// breaks the remaining ties so the order is total.
func sortViolations(vs []Violation) {
	sort.Slice(vs, func(i, j int) bool {
		a, b := vs[i], vs[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Declaration != b.Declaration {
			return a.Declaration < b.Declaration
		}
		return a.Detail < b.Detail
	})
}
