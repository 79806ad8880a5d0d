package translate

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
func (g *exprGen) pairs(host, target *node, x, y string, body func(x, y string) (string, error)) (string, error) {
	if host == target {
		return body(x, y)
	}
	steps := pathBetween(host, target)
	return g.pairSteps(steps, x, y, body)
}

// pathBetween lists the nodes below host down to target, host excluded.
func pathBetween(host, target *node) []*node {
	var rev []*node
	for c := target; c != host; c = c.parent {
		rev = append(rev, c)
	}
	out := make([]*node, len(rev))
	for i, n := range rev {
		out[len(rev)-1-i] = n
	}
	return out
}

func (g *exprGen) pairSteps(steps []*node, x, y string, body func(x, y string) (string, error)) (string, error) {
	if len(steps) == 0 {
		return body(x, y)
	}
	n, rest := steps[0], steps[1:]
	next := func(nx, ny string) (string, error) { return g.pairSteps(rest, nx, ny, body) }
	if n.nullableEntry() && len(rest) > 0 {
		// Below a null entry nothing exists, so nothing there exists
		// before and after.
		next = func(nx, ny string) (string, error) {
			inner, err := g.pairSteps(rest, nx, ny, body)
			return isNull(nx) + " || " + isNull(ny) + " || " + paren(inner), err
		}
	}
	switch {
	case n.isProperty():
		nx, selErr := sel(x, n.name())
		ny, _ := sel(y, n.name())
		inner, err := next(nx, ny)
		return "!has(" + nx + ") || !has(" + ny + ") || " + paren(inner), joinReasons(selErr, err)
	case n.isValue():
		k := g.newVar("k")
		inner, err := next(x+"["+k+"]", y+"["+k+"]")
		return x + ".all(" + k + ", !(" + k + " in " + y + ") || " + paren(inner) + ")", err
	case n.parent.listType() == "set":
		return "", errVacuous
	case n.parent.listType() == "map":
		e, f := g.newVar("e"), g.newVar("e")
		eq, eqErr := g.keyEq(n.parent, e, f)
		inner, err := next(e, f)
		return x + ".all(" + e + ", " + y + ".all(" + f + ", !(" + eq + ") || " + paren(inner) + "))", joinReasons(eqErr, err)
	default:
		return g.indexPairs(n.parent, x, y, next)
	}
}
