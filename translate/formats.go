package translate

import (
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
	return newProblem(Unsupported, "%s: supported value: %q", quoteValue(v), decl.CompareAsValues)
}

// errFormatsAlone: the modifier stands on a node that declares nothing
// else.
func errFormatsAlone() Problem {
	return newProblem(Invalid, "%s", decl.ModifierAlone())
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
func (p *planner) comparesAsValues(n *node) bool {
	return p.formatsAsValues || n.decl.formats
}

// coveredAbove returns the nearest node at or above n whose declarations
// keep its whole value (valueImmutableAtOrAbove), so that a check inside
// it holds already wherever it exists before and after; nil if there is
// none. A node whose declarations compare formatted strings as values
// keeps its value only as CEL reads it, which covers a check inside only
// where byValue says that is enough: for a declaration that compares as
// values too, or one that two spellings of a value cannot break.
func (p *planner) coveredAbove(n *node, byValue bool) *node {
	for c := n; c != nil; c = c.parent {
		c = c.valueImmutableAtOrAbove()
		if c == nil || byValue || !p.comparesAsValues(c) {
			return c
		}
	}
	return nil
}

// spelledFormatIn reports whether a string at or below n has a format
// whose CEL value has several spellings (typedFormats).
func spelledFormatIn(n *node) bool {
	found := false
	if n != nil {
		n.walk(func(c *node) {
			if _, f, ok := c.format(); ok && f.spellings != "" {
				found = true
			}
		})
	}
	return found
}

// setKeysStrict refuses to test the keys of a set whose items hold
// formatted strings, with the opt-in or without: the keys of a set are
// its items as stored (semantics.md 2.2), which the apiserver tells apart
// by the stored strings, while CEL's in and == compare them as values,
// so that 60m would pass for the key 1h.
func (g *exprGen) setKeysStrict(c *node) error {
	if g.plainValues || !spelledFormatIn(c.items) {
		return nil
	}
	return cannot(ReasonFormat, "the keys of the set %s are its items as stored, which hold strings with a format that the apiserver's CEL compares as values (1h and 60m are equal), so no rule can see a key replaced by another spelling of its value; declare NoModify on the whole set with x-mut2cel-formats: CompareAsValues instead, or remove the format", c.userPath())
}

// errorsSwallowed reports whether comparing two lists built by map() from
// items of n could take a string CEL cannot read for an equal one: under
// the opt-in, where such a string is at or below n. The == of a list that
// CEL builds (cel-go's baseList) fails only on a false item comparison
// and passes over one that fails, so an item holding such a string would
// compare equal to anything; the apiserver's own lists, and comparisons
// in all(), pass the failure on, which denies the update as semantics.md 8
// says.
func (g *exprGen) errorsSwallowed(n *node) bool {
	if !g.formatsAsValues || n == nil {
		return false
	}
	found := false
	n.walk(func(c *node) {
		if c.unreadable() {
			found = true
		}
	})
	return found
}
