package validity

import (
	"context"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// Validator decides whether the apiserver accepts objects of one schema on
// create, as internal/kube.ObjectValidator does, for less.
type Validator struct {
	o *onode
	s *snode
}

// budget is the cost budget of all rules on one object.
const budget = celconfig.RuntimeCELCostBudget

// New returns the validator of the schema openapi, as the apiserver's
// schema validator converts it (internal/kube.ObjectValidator.OpenAPI),
// whose structural form is s, and rules, the apiserver's validator of the
// rules of s on create (cel.NewValidator(s, true, PerCallLimit)), nil
// when s has none.
func New(openapi *spec.Schema, s *schema.Structural, rules *cel.Validator) *Validator {
	return &Validator{o: compileOpenAPI(openapi, true), s: newSnode(s, rules, true)}
}

// Object returns the reasons the apiserver refuses to create obj, in
// stored form, as internal/kube.ObjectValidator.Validate does: the errors
// of the OpenAPI schema validation and of the uniqueness of set items and
// list-map keys (schemaErrors), or, when they find nothing, those of the
// rules that do not read oldSelf. cost is the cost of the rules, which
// Changed needs.
func (v *Validator) Object(obj map[string]interface{}) (errs field.ErrorList, cost int64) {
	if !v.o.valid(obj) || !v.s.listsValid(obj) {
		return v.schemaErrors(obj), 0
	}
	c := &diffing{ok: true}
	c.wholeRules(v.s, obj)
	if !c.ok || c.cost >= budget/2 {
		// Near the budget, only the whole validation says which rules
		// it evaluates before it runs out.
		errs, remaining := v.s.cv.Validate(context.Background(), nil, v.s.st, obj, nil, budget)
		return errs, budget - remaining
	}
	return c.errs, c.cost
}

// Changed is Object for new, given old, which the apiserver accepts on
// create (Object returned no error), its rules costing oldCost. It checks
// only where new differs from old: the values that changed, with
// everything they hold; the object and list checks of their ancestors
// (required properties, bounds on properties and items, the uniqueness of
// sets and list-maps); and the rules evaluated on those ancestors, whose
// scope holds the change. Everything else is as it was in old, where it
// passed, and the errors of the rules are those of the rules evaluated
// again. ok is false where the rules of new could run out of the cost
// budget, or a rule stops the evaluation of the others, which only the
// whole validation decides.
func (v *Validator) Changed(old map[string]interface{}, oldCost int64, new map[string]interface{}) (errs field.ErrorList, ok bool) {
	c := &diffing{ok: true}
	c.diff(v.o, v.s, old, new)
	if c.schema {
		return v.schemaErrors(new), true
	}
	// The rules of new cost what those of old cost, less what the rules
	// evaluated again cost on old, plus what they cost on new.
	if !c.ok || oldCost+c.cost >= budget/2 {
		return nil, false
	}
	return c.errs, true
}

// diffing is one run of Changed.
type diffing struct {
	// ok turns false where the schema or listtype refuses new (schema),
	// or the rules cannot be decided apart.
	ok     bool
	schema bool
	cost   int64 // of the rules evaluated on new
	errs   field.ErrorList
	// path is the way from the root to the value diff is at, for the
	// field paths of the rules' errors.
	path []step
}

// step is one step of a path: a property (Child), a key of
// additionalProperties (Key) or an index (Index), as the apiserver's
// validator of rules names them.
type step struct {
	name  string
	index int
	kind  byte // 'p', 'k' or 'i'
}

func (c *diffing) fieldPath() *field.Path {
	var p *field.Path
	for _, s := range c.path {
		switch s.kind {
		case 'p':
			p = p.Child(s.name)
		case 'k':
			p = p.Key(s.name)
		default:
			p = p.Index(s.index)
		}
	}
	return p
}

// diff checks nv, the value at a place of new whose schema nodes are o
// and s (either may be nil), given ov, the value at the same place of
// old, and reports whether they differ.
func (c *diffing) diff(o *onode, s *snode, ov, nv interface{}) (changed bool) {
	below := o
	if o != nil && o.delegate {
		below = nil // kube-openapi validates the whole value here
	}
	var whole bool
	switch n := nv.(type) {
	case map[string]interface{}:
		changed, whole = c.diffObject(below, s, ov, n)
	case []interface{}:
		changed, whole = c.diffList(below, s, ov, n)
	default:
		if sameScalar(ov, nv) {
			return false
		}
		whole = true
	}
	switch {
	case whole:
		c.whole(o, s, nv)
		return true
	case !c.ok:
		return true
	case changed:
		c.here(o, s, nv)
	}
	return changed
}

// diffObject is diff of the properties of n, given ov, with below the
// checks of n's node where they walk the value; whole says ov is no
// object, and n is to be checked whole.
func (c *diffing) diffObject(below *onode, s *snode, ov interface{}, n map[string]interface{}) (changed, whole bool) {
	om, ok := ov.(map[string]interface{})
	if !ok {
		return true, true
	}
	changed = len(om) != len(n)
	for k, e := range n {
		cs, kind := s.child(k)
		c.path = append(c.path, step{name: k, kind: kind})
		oe, inOld := om[k]
		switch {
		case !inOld:
			changed = true
			c.whole(below.child(k), cs, e)
		case c.diff(below.child(k), cs, oe, e):
			changed = true
		}
		c.path = c.path[:len(c.path)-1]
		if !c.ok {
			return true, false
		}
	}
	return changed, false
}

// diffList is diffObject for the items of a list.
func (c *diffing) diffList(below *onode, s *snode, ov interface{}, n []interface{}) (changed, whole bool) {
	ol, ok := ov.([]interface{})
	if !ok {
		return true, true
	}
	changed = len(ol) != len(n)
	for i, e := range n {
		c.path = append(c.path, step{index: i, kind: 'i'})
		if i >= len(ol) {
			changed = true
			c.whole(below.itemsNode(), s.itemsNode(), e)
		} else if c.diff(below.itemsNode(), s.itemsNode(), ol[i], e) {
			changed = true
		}
		c.path = c.path[:len(c.path)-1]
		if !c.ok {
			return true, false
		}
	}
	return changed, false
}

// sameScalar reports whether the old value a equals the scalar b, as the
// same Go type.
func sameScalar(a, b interface{}) bool {
	switch a.(type) {
	case map[string]interface{}, []interface{}:
		return false
	}
	switch b.(type) {
	case string, bool, int64, float64, nil:
		return a == b
	}
	return false
}

// here checks v at a place where it changed, but not what it holds.
func (c *diffing) here(o *onode, s *snode, v interface{}) {
	if o != nil && !o.validHere(v) {
		c.ok, c.schema = false, true
		return
	}
	if s == nil {
		return
	}
	if l, isList := v.([]interface{}); isList && !listOK(s.listType, s.mapKeys, l) {
		c.ok, c.schema = false, true
		return
	}
	c.rules(s, v)
}

// whole checks v and everything it holds.
func (c *diffing) whole(o *onode, s *snode, v interface{}) {
	if o != nil && !o.valid(v) {
		c.ok, c.schema = false, true
		return
	}
	if s == nil {
		return
	}
	if !s.listsValid(v) {
		c.ok, c.schema = false, true
		return
	}
	c.wholeRules(s, v)
}

func (n *onode) itemsNode() *onode {
	if n == nil {
		return nil
	}
	return n.items
}
