package compiler

import (
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
)

// The modifier x-mut2cel-formats: CompareAsValues (decl.ExtFormats), and
// its run-wide form, Options.CompareFormatsAsValues. Under it the
// declarations compare strings of format date-time, duration and byte
// by the values the apiserver's CEL reads (semantics.md 8, "Formatted
// strings compared as values"): the value rules that formatComparable
// refuses otherwise are emitted, and presence rules on such strings too
// (presenceReadable).

// errFormatsValue: the modifier holds another value than its one.
func errFormatsValue(v interface{}) Problem {
	return NewProblem(Unsupported, "%s: supported value: %q", quoteValue(v), decl.CompareAsValues)
}

// errFormatsAlone: the modifier stands on a node that declares nothing
// else.
func errFormatsAlone() Problem {
	return NewProblem(Invalid, "%s", decl.ModifierAlone())
}

// modifiersAlone returns the problems of the modifiers among decls that
// stand on a node where no declaration of another kind stands, from any
// front end, each where it was written.
func (g *gatherer) modifiersAlone() []Problem {
	declares := map[string]bool{}
	for _, d := range g.decls {
		if k, _ := decl.KindNamed(d.Ext); !k.Modifier() {
			declares[pathKey([]interface{}{d.Version, d.Path.String()})] = true
		}
	}
	var problems []Problem
	kept := g.decls[:0]
	for _, d := range g.decls {
		k, _ := decl.KindNamed(d.Ext)
		if k.Modifier() && !declares[pathKey([]interface{}{d.Version, d.Path.String()})] {
			problems = append(problems, problemAt(d, g.st.node(d), errFormatsAlone()))
			continue
		}
		kept = append(kept, d)
	}
	g.decls = kept
	return problems
}

// comparesAsValues reports whether the declarations of n compare
// formatted strings as CEL values: the modifier beside them, or the run.
func (p *planner) comparesAsValues(n *crd.Node) bool {
	return p.formatsAsValues || p.declared[n] != nil && p.declared[n].formats
}

// coveredAbove returns the nearest node at or above n whose declarations
// keep its whole value (valueImmutableAtOrAbove), so that a check inside
// it holds already wherever it exists before and after; nil if there is
// none. A node whose declarations compare formatted strings as values
// keeps its value only as CEL reads it, which covers a check inside only
// where byValue says that is enough: for a declaration that compares as
// values too, or one that two spellings of a value cannot break.
func (p *planner) coveredAbove(n *crd.Node, byValue bool) *crd.Node {
	for c := n; c != nil; c = c.Parent {
		c = p.valueImmutableAtOrAbove(c)
		if c == nil || byValue || !p.comparesAsValues(c) {
			return c
		}
	}
	return nil
}

// valueImmutableAtOrAbove returns the nearest node at or above n that
// declares x-kubernetes-mutability or NoModify, or nil. Where such a node
// exists before and after the update its whole value is equal, so
// constraints on positions inside it hold already.
func (p *planner) valueImmutableAtOrAbove(n *crd.Node) *crd.Node {
	for c := n; c != nil; c = c.Parent {
		if d := p.declared[c]; d != nil && (d.mutability != unset || d.update.Has(decl.NoModify)) {
			return c
		}
	}
	return nil
}
