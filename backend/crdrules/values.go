package crdrules

import (
	apiservercel "k8s.io/apiserver/pkg/cel"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/diag"
)

// Where the apiserver's CEL values differ from the stored JSON
// (semantics.md 8). The apiserver converts a stored object to CEL values
// lazily, node by node, in k8s.io/apiserver/pkg/cel/common
// (UnstructuredToVal); the cases here decide which rules mut2cel may emit.

// presenceReadable refuses to test the presence of the property n where
// that reads a value the apiserver may not be able to read: has() on a
// property converts its value, and fails on such a value, and CEL has no
// other test of a property's presence (a typed object cannot be iterated
// for its keys), so the rule would deny updates of an object holding one.
// Under the opt-in (x-mut2cel-formats) that denial is the stated meaning
// (semantics.md 8), and the rule is emitted.
func (g *exprGen) presenceReadable(n *crd.Node) error {
	name, f, ok := n.Format()
	if !ok || f.Unreadable == "" || g.formatsAsValues {
		return nil
	}
	return cannot(diag.ReasonFormat, "%s is a string with format %s, and the apiserver's CEL tests whether a property is set by reading its value, which fails on spellings its write validation stores (%s), so a rule on its presence would deny updates of an object holding one; %s", n.UserPath(), name, f.Unreadable, optInHint)
}

// formatComparable refuses a string whose CEL value has several stored
// spellings, unless the declaration compares them as values: no rule can
// compare the strings.
func (g *exprGen) formatComparable(n *crd.Node) error {
	name, f, ok := n.Format()
	if !ok || f.Spellings == "" || g.formatsAsValues {
		return nil
	}
	return cannot(diag.ReasonFormat, "the value at %s is a string with format %s, which the apiserver's CEL reads as %s and compares as such (%s are equal), so no rule can see every change of the stored string; %s, remove the format (a pattern can check the string instead) or leave the field out of the declaration", n.UserPath(), name, f.CELType, f.Spellings, optInHint)
}

// optInHint names the opt-in in the refusals it lifts. Library messages
// name the modifier, and the option of the whole run by the words of
// decl.RunWideFormats, which a command replaces with its flag.
const optInHint = "to accept respellings of one value as no change, add " + decl.ExtFormats + ": " + decl.CompareAsValues + " beside the declaration (or " + decl.RunWideFormats + ")"

// equalSeesProperty reports whether the apiserver's == on objects compares
// the property name under its own name. That == looks every stored
// property up through cel.Unescape, as if the name came from a rule: a
// name that reads as an escape is looked up as another property
// (x__dash__y as x-y, __namespace__ as namespace) or not at all (__meta__,
// __kind__, a__b__c), so its changes go unseen. Selecting such a property
// with its escaped name (self.__underscores__meta__underscores__) reads
// it correctly.
func equalSeesProperty(name string) bool {
	unescaped, ok := apiservercel.Unescape(name)
	return ok && unescaped == name
}

// setKeysStrict refuses to test the keys of a set whose items hold
// formatted strings, with the opt-in or without: the keys of a set are
// its items as stored (semantics.md 2.2), which the apiserver tells apart
// by the stored strings, while CEL's in and == compare them as values,
// so that 60m would pass for the key 1h.
func (g *exprGen) setKeysStrict(c *crd.Node) error {
	if !crd.SpelledFormatIn(c.Items) {
		return nil
	}
	return cannot(diag.ReasonFormat, "the keys of the set %s are its items as stored, which hold strings with a format that the apiserver's CEL compares as values (1h and 60m are equal), so no rule can see a key replaced by another spelling of its value; declare NoModify on the whole set with x-mut2cel-formats: CompareAsValues instead, or remove the format", c.UserPath())
}

// errorsSwallowed reports whether comparing two lists built by map() from
// items of n could take a string CEL cannot read for an equal one: under
// the opt-in, where such a string is at or below n. The == of a list that
// CEL builds (cel-go's baseList) fails only on a false item comparison
// and passes over one that fails, so an item holding such a string would
// compare equal to anything; the apiserver's own lists, and comparisons
// in all(), pass the failure on, which denies the update as semantics.md 8
// says.
func (g *exprGen) errorsSwallowed(n *crd.Node) bool {
	if !g.formatsAsValues || n == nil {
		return false
	}
	found := false
	n.Walk(func(c *crd.Node) {
		if c.Unreadable() {
			found = true
		}
	})
	return found
}

// hiddenMetadata refuses a declaration on the metadata of an embedded
// resource other than its name and generateName: the apiserver's CEL
// declares only those two fields of such metadata, so a rule that reads
// labels or annotations there does not compile, and one that compares the
// whole metadata sees only part of it.
func hiddenMetadata(n *crd.Node) error {
	if resource, ok := n.EmbeddedMetadata(); ok {
		return cannot(diag.ReasonInexact, "%s is in the metadata of the embedded resource at %s, of which the apiserver's CEL sees only name and generateName, so no rule can read it; declare metadata.name, or fields outside metadata",
			n.UserPath(), resource.UserPath())
	}
	return nil
}
