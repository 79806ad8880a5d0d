package crdrules

import "github.com/mut2cel/mut2cel/crd"

// errVacuous marks a constraint that can never be violated: its target lies
// inside a set item, which exists before and after only when it is equal as a
// whole (semantics.md 3.3).
var errVacuous = cannot("", "vacuous")

// pairs renders "body holds for every instance of target below host that
// exists before and after" (semantics.md 2.2), for a host whose old value the
// apiserver pairs with the new one. x and y name the host's new and old value.
// The steps from host to target are walked as the semantics pairs them:
//
//	property:     !has(x.f) || !has(y.f) || BODY(x.f, y.f)
//	map value:    x.all(k, !(k in y) || BODY(x[k], y[k]))
//	list-map item: x.all(e, y.all(f, !(KEYEQ(e, f)) || BODY(e, f)))
//	atomic item:  see indexPairs
//
// Each step multiplies the cost by the size of its collection (squared for
// list maps, whose items are paired by scanning).
func (g *exprGen) pairs(host, target *crd.Node, x, y string, body func(x, y string) (string, error)) (string, error) {
	if host == target {
		return body(x, y)
	}
	steps := host.Between(target)
	return g.pairSteps(steps, x, y, body)
}

func (g *exprGen) pairSteps(steps []*crd.Node, x, y string, body func(x, y string) (string, error)) (string, error) {
	if len(steps) == 0 {
		return body(x, y)
	}
	n, rest := steps[0], steps[1:]
	next := func(nx, ny string) (string, error) { return g.pairSteps(rest, nx, ny, body) }
	if n.NullableEntry() && len(rest) > 0 {
		// Below a null entry nothing exists, so nothing there exists
		// before and after.
		next = func(nx, ny string) (string, error) {
			inner, err := g.pairSteps(rest, nx, ny, body)
			return isNull(nx) + " || " + isNull(ny) + " || " + paren(inner), err
		}
	}
	switch {
	case n.IsProperty():
		nx, selErr := sel(x, n.Name())
		ny, _ := sel(y, n.Name())
		inner, err := next(nx, ny)
		return "!has(" + nx + ") || !has(" + ny + ") || " + paren(inner), joinReasons(selErr, err)
	case n.IsValue():
		k := g.newVar("k")
		inner, err := next(x+"["+k+"]", y+"["+k+"]")
		return x + ".all(" + k + ", !(" + k + " in " + y + ") || " + paren(inner) + ")", err
	case n.Parent.ListType() == "set":
		return "", errVacuous
	case n.Parent.ListType() == "map":
		e, f := g.newVar("e"), g.newVar("e")
		eq, eqErr := g.keyEq(n.Parent, e, f)
		inner, err := next(e, f)
		return x + ".all(" + e + ", " + y + ".all(" + f + ", !(" + eq + ") || " + paren(inner) + "))", joinReasons(eqErr, err)
	default:
		return g.indexPairs(n.Parent, x, y, next)
	}
}
