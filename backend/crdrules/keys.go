package crdrules

import (
	"strings"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/mut2cel/mut2cel/plan"
)

// keyEq renders "items a and b of a list-type map have the same key":
//
//	a.k1 == b.k1 && a.k2 == b.k2
func (g *exprGen) keyEq(list *crd.Node, a, b string) (string, error) {
	errs := g.keysComparable(list)
	var terms []string
	for _, k := range list.ListMapKeys() {
		ak, err := sel(a, k)
		errs = joinReasons(errs, err)
		bk, _ := sel(b, k)
		terms = append(terms, ak+" == "+bk)
	}
	return strings.Join(terms, " && "), errs
}

// keysComparable refuses a list-map keyed by a string whose CEL value has
// several stored spellings: the apiserver pairs items and checks keys for
// uniqueness by the stored strings, so two items may hold keys that CEL's
// == takes for one.
func (g *exprGen) keysComparable(list *crd.Node) error {
	var errs error
	for _, k := range list.ListMapKeys() {
		kn := list.Items.Prop(k)
		if kn == nil {
			continue
		}
		if name, f, ok := kn.Format(); ok && f.Spellings != "" {
			errs = joinReasons(errs, cannot(diag.ReasonFormat, "the items of %s are keyed by %s, a string with format %s, which the apiserver's CEL reads as %s and compares as such (%s are equal), while the apiserver tells items apart by the stored strings, so no rule can pair the items as the apiserver does; remove the format (a pattern can check the string instead)", list.UserPath(), k, name, f.CELType, f.Spellings))
		}
	}
	return errs
}

// keys builds the key check of collection c reached from its scope by names
// (semantics.md 4). An absent collection has no keys, nor has a null one
// (nullable: the scope is an entry that may be null). The presence tests are
// written out with has() rather than with optional chaining
// (x.?a.orValue([])), because the cost estimator loses the size bound of
// orValue's result and estimates every iteration over it as unbounded.
//
// With X, Y the new and old collection and PX, PY their presence:
//
//	atomic list:  (PX ? size(X) : 0) >= (PY ? size(Y) : 0)       AddOnly
//	others:       !PY || (PX ? CONTAINED(Y, X) : size(Y) == 0)    AddOnly
//	              !PX || (PY ? CONTAINED(X, Y) : size(X) == 0)    RemoveOnly
//	              PX ? (PY ? size(X) == size(Y) && CONTAINED(Y, X) : size(X) == 0)
//	                 : (!PY || size(Y) == 0)                      Immutable
//
// CONTAINED is O(n) for maps (hashed lookups) and O(n^2) for sets and
// list-type maps, whose membership tests scan the list, and for maps whose
// values CEL may fail to read (date-time, byte), whose keys are compared by
// scanning so that no value is read:
//
//	map:          Y.all(k, k in X)
//	unreadable:   Y.all(k, X.exists(j, j == k))
//	set:          Y.all(e, e in X), or where the items' == is not strict
//	              Y.all(e, X.exists(f, EQ(e, f)))
func (g *exprGen) keys(m plan.Mode, c *crd.Node, x, y string, names []string, nullable bool) (string, error) {
	px, chainErr := hasChain(x, names, nullable)
	py, _ := hasChain(y, names, nullable)
	nx, _ := selChain(x, names)
	ny, _ := selChain(y, names)
	px, py = paren(px), paren(py)
	if c.ListType() == "atomic" {
		op := map[plan.Mode]string{plan.Immutable: "==", plan.AddOnly: ">=", plan.RemoveOnly: "<="}[m]
		return sizeOrZero(px, nx) + " " + op + " " + sizeOrZero(py, ny), chainErr
	}
	sub, super, psub, psuper := ny, nx, py, px // AddOnly, Immutable: old keys stay
	if m == plan.RemoveOnly {
		sub, super, psub, psuper = nx, ny, px, py
	}
	contained, err := g.containedKeys(c, sub, super)
	err = joinReasons(chainErr, err)
	if m == plan.Immutable {
		contained = "size(" + nx + ") == size(" + ny + ") && " + contained
	}
	if px == "" {
		return contained, err
	}
	if m == plan.Immutable {
		return px + " ? (" + py + " ? " + contained + " : size(" + nx + ") == 0) : (!" + py + " || size(" + ny + ") == 0)", err
	}
	return "!" + psub + " || (" + psuper + " ? " + contained + " : size(" + sub + ") == 0)", err
}

// keyPresence is the part of the key check of a collection reached from
// its scope by names that a rule on the collection cannot make, because
// it runs only where the collection exists before and after:
//
//	!PY || size(Y) == 0 || PX                                   AddOnly
//	!PX || size(X) == 0 || PY                                   RemoveOnly
//	PX ? (PY || size(X) == 0) : (!PY || size(Y) == 0)           Immutable
//
// A null scope (nullable) has no collection.
func keyPresence(m plan.Mode, x, y string, names []string, nullable bool) (string, error) {
	px, err := hasChain(x, names, nullable)
	py, _ := hasChain(y, names, nullable)
	nx, _ := selChain(x, names)
	ny, _ := selChain(y, names)
	px, py = paren(px), paren(py)
	switch m {
	case plan.AddOnly:
		return "!" + py + " || size(" + ny + ") == 0 || " + px, err
	case plan.RemoveOnly:
		return "!" + px + " || size(" + nx + ") == 0 || " + py, err
	}
	return px + " ? (" + py + " || size(" + nx + ") == 0) : (!" + py + " || size(" + ny + ") == 0)", err
}

func sizeOrZero(present, coll string) string {
	if present == "" {
		return "size(" + coll + ")"
	}
	return "(" + present + " ? size(" + coll + ") : 0)"
}

// selChain renders x.a.b.
func selChain(x string, names []string) (string, error) {
	cur := x
	var errs error
	for _, name := range names {
		var err error
		cur, err = sel(cur, name)
		errs = joinReasons(errs, err)
	}
	return cur, errs
}

// containedKeys renders "every key of sub is a key of super".
func (g *exprGen) containedKeys(c *crd.Node, sub, super string) (string, error) {
	switch {
	case c.IsMap() && c.Values.Unreadable():
		// k in M reads M[k], which fails where the apiserver stored a
		// value its CEL cannot read; comparing keys reads no value.
		k, j := g.newVar("k"), g.newVar("k")
		return sub + ".all(" + k + ", " + super + ".exists(" + j + ", " + j + " == " + k + "))", nil
	case c.IsMap():
		k := g.newVar("k")
		return sub + ".all(" + k + ", " + k + " in " + super + ")", nil
	case c.ListType() == "set":
		if err := g.setKeysStrict(c); err != nil {
			return "", err
		}
		exact, err := g.exactEquality(c.Items)
		e := g.newVar("e")
		if err == nil && exact {
			return sub + ".all(" + e + ", " + e + " in " + super + ")", nil
		}
		// in uses the items' ==, which is not strict here: scan for an
		// item strictly equal instead.
		f := g.newVar("e")
		eq, err := g.equal(c.Items, e, f)
		return sub + ".all(" + e + ", " + super + ".exists(" + f + ", " + paren(eq) + "))", err
	default: // list-type map
		e, f := g.newVar("e"), g.newVar("e")
		eq, err := g.keyEq(c, e, f)
		return sub + ".all(" + e + ", " + super + ".exists(" + f + ", " + eq + "))", err
	}
}
