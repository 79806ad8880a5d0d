package reference

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mut2cel/mut2cel/decl"
)

// The modifier x-mut2cel-formats: CompareAsValues (semantics.md 8,
// "Formatted strings compared as values"): the declarations beside it,
// or under Checker.CompareFormatsAsValues every declaration, compare the
// strings of format date-time, duration and byte by the values they
// spell (formatvalue.go), and a value that has none is equal to nothing.
// Keys stay the stored strings (semantics.md 2.2).

const extFormats = decl.ExtFormats

// byValueFormats are the formats whose strings the opt-in compares as
// values; date has one spelling per day, and its strings are its values.
var byValueFormats = map[string]bool{"date-time": true, "duration": true, "byte": true}

// checkFormatsModifier records what is wrong with the modifier on raw: a
// value other than its one, a place no declaration may stand, or no
// declaration of another kind beside it.
func (p *parser) checkFormatsModifier(raw map[string]interface{}, path *field.Path, at where) {
	v, ok := raw[extFormats]
	if !ok {
		return
	}
	at2 := path.Child(extFormats)
	if s, _ := v.(string); s != decl.CompareAsValues {
		p.errs = append(p.errs, field.NotSupported(at2, v, []string{decl.CompareAsValues}))
	}
	if err := misplaced(at2, at); err != nil {
		p.errs = append(p.errs, err)
		return
	}
	for _, ext := range []string{extMutability, extKeyMutability, extUpdate} {
		if _, ok := raw[ext]; ok {
			return
		}
	}
	p.errs = append(p.errs, field.Invalid(at2, v, decl.ModifierAlone()))
}

// CompareFormatsAsValues makes every declaration compare formatted
// strings as values, as the run-wide option of translate does.
func (c *Checker) CompareFormatsAsValues() { c.formatsAsValues = true }

// asValues reports whether the declarations of n compare formatted
// strings as values. At or below the items of a set they compare nothing:
// such a position exists before and after only where the set item is the
// same stored value (semantics.md 3.3), so no rule reads it there, and a
// string CEL cannot read denies nothing.
func (w *walker) asValues(n *node) bool {
	return (w.formatsAsValues || n.formats) && !n.inSetItem
}

// equalAs is equal, or with asValues the equality of the opt-in: strings
// of the three formats equal when they spell one value.
func equalAs(n *node, a, b interface{}, asValues bool) bool {
	if !asValues {
		return equal(n, a, b)
	}
	return equalValues(n, a, b)
}

// equalValues is strict equality (equal) but for the strings of nodes
// with one of the three formats, which are equal when both spell the same
// value.
func equalValues(n *node, a, b interface{}) bool {
	if !formattedBelow(n) {
		return equal(n, a, b)
	}
	switch x := a.(type) {
	case []interface{}:
		y, ok := b.([]interface{})
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValues(n.itemNode(), x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]interface{}:
		y, ok := b.(map[string]interface{})
		keepNulls := n.isMap()
		if !ok || countKeys(x, keepNulls) != countKeys(y, keepNulls) {
			return false
		}
		for k, v := range x {
			if v == nil && !keepNulls {
				continue
			}
			w, ok := y[k]
			if !ok || !equalValues(n.child(k), v, w) {
				return false
			}
		}
		return true
	case string:
		y, ok := b.(string)
		if !ok || n == nil || !byValueFormats[n.format] {
			return ok && x == y
		}
		vx, okx := formatValue(n.format, x)
		vy, oky := formatValue(n.format, y)
		return okx && oky && vx == vy
	}
	return equal(n, a, b)
}

// formattedBelow reports whether a string of one of the three formats is
// at or below n.
func formattedBelow(n *node) bool {
	return n != nil && n.formattedBelow
}

// unreadableIn reports whether v holds, at a node of one of the three
// formats, a string that spells no value: one the apiserver stores but
// its CEL cannot read.
func unreadableIn(n *node, v interface{}) bool {
	if !formattedBelow(n) {
		return false
	}
	switch x := v.(type) {
	case []interface{}:
		for _, e := range x {
			if unreadableIn(n.itemNode(), e) {
				return true
			}
		}
	case map[string]interface{}:
		for k, e := range x {
			if unreadableIn(n.child(k), e) {
				return true
			}
		}
	case string:
		_, ok := formatValue(n.format, x)
		return byValueFormats[n.format] && !ok
	}
	return false
}

// markSetItems sets inSetItem at and below the items of every set.
func markSetItems(n *node, in bool) {
	if n == nil {
		return
	}
	n.inSetItem = in
	for _, p := range n.props {
		markSetItems(p.node, in)
	}
	markSetItems(n.items, in || n.listType == "set")
	markSetItems(n.values, in)
}

// markFormatted sets formattedBelow on every node at or above a string of
// the three formats, so that comparisons elsewhere stay strict and cheap.
func markFormatted(n *node) bool {
	if n == nil {
		return false
	}
	below := byValueFormats[n.format]
	for _, p := range n.props {
		below = markFormatted(p.node) || below
	}
	below = markFormatted(n.items) || below
	below = markFormatted(n.values) || below
	n.formattedBelow = below
	return below
}

// presenceChange says whether the property n, at a position whose scope
// exists before and after, was removed (present before, absent after) or
// added (absent before, present after), as a presence constraint judges
// it. Under the opt-in a rule tests the presence of a property the schema
// does not keep present by reading its value, which fails on a string
// CEL cannot read, and a failing rule denies: such a value counts as
// absent on the side where that denies the update, so that NoUnset
// (removed) denies a present value turned unreadable and NoSet (added) a
// value present after where it was unreadable before (semantics.md 8).
func (w *walker) presenceChange(n *node, p pair) (removed, added bool) {
	removed = p.old.ok && !p.new.ok
	added = !p.old.ok && p.new.ok
	if !w.asValues(n) || !n.presenceReads || !byValueFormats[n.format] || !p.both() {
		// has() reads the value of the property itself only: an
		// object, list or map is read lazily, its contents not at all.
		return removed, added
	}
	return unreadableIn(n, p.new.v), unreadableIn(n, p.old.v)
}

// unreadableDetail words a value violation whose cause is a string CEL
// cannot read, where the two values are otherwise strictly equal; else
// detail.
func unreadableDetail(n *node, p pair, detail string) string {
	if !equal(n, p.old.v, p.new.v) {
		return detail
	}
	return "the value holds a string the apiserver's CEL cannot read as its format, so every rule comparing it fails and the update is denied: " + shown(p.new.v)
}

// ComparesAnyAsValues reports whether a declaration of the checker
// compares formatted strings as values.
func (c *Checker) ComparesAnyAsValues() bool {
	if c.formatsAsValues {
		return true
	}
	found := false
	var walk func(n *node)
	walk = func(n *node) {
		if n == nil || found {
			return
		}
		found = n.formats
		for _, p := range n.props {
			walk(p.node)
		}
		walk(n.items)
		walk(n.values)
	}
	walk(c.root)
	return found
}
