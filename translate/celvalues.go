package translate

import (
	apiservercel "k8s.io/apiserver/pkg/cel"

	"github.com/mut2cel/mut2cel/decl"
)

// Where the apiserver's CEL values differ from the stored JSON
// (semantics.md 8). The apiserver converts a stored object to CEL values
// lazily, node by node, in k8s.io/apiserver/pkg/cel/common
// (UnstructuredToVal); the cases here decide which rules mut2cel may emit.

// typedFormat is a string format that the apiserver's CEL reads as a value
// of another type: UnstructuredToVal parses the string, and SchemaDeclType
// declares the field with that type.
type typedFormat struct {
	celType string
	// spellings names two stored strings of one CEL value; empty where
	// every value has exactly one spelling that the apiserver accepts on
	// write, so that == on the values is == on the strings.
	spellings string
	// unreadable, where set, is a string the apiserver accepts on write
	// but its CEL cannot convert: any rule that reads such a value fails,
	// even has() and map lookups (in).
	unreadable string
}

// typedFormats lists the formats UnstructuredToVal converts, by the exact
// format name it switches on (datetime without the dash stays a string).
//
//   - date: time.Parse with 2006-01-02, the layout the write validation
//     uses too, which takes exactly four, two and two digits: one spelling
//     per day.
//   - date-time: strfmt.ParseDateTime, which reads offsets and fractions
//     (12:00:00+02:00 is 10:00:00Z, .000 is nothing). The write validation
//     (strfmt.IsDateTime) lowercases and splits at "t", so it also accepts
//     2024-05-01t10:00:00z, which the parser refuses.
//   - duration: strfmt.ParseDuration, for the write validation and for CEL:
//     1h, 60m and 3600s are one duration.
//   - byte: base64 decoded with the URL alphabet and without the strict
//     check of the bits after the last character (YQ== and YR== decode
//     alike), while the write validation takes the standard alphabet, so a
//     value with + or / is stored but cannot be read.
var typedFormats = map[string]typedFormat{
	"date":      {celType: "timestamp"},
	"date-time": {celType: "timestamp", spellings: "2024-05-01T10:00:00Z and 2024-05-01T12:00:00+02:00", unreadable: "2024-05-01t10:00:00z"},
	"duration":  {celType: "duration", spellings: "1h and 60m"},
	"byte":      {celType: "bytes", spellings: "YQ== and YR==", unreadable: "+/8="},
}

// format returns the typed format of a string node, if it has one.
func (n *node) format() (string, typedFormat, bool) {
	if n.s.Type != "string" || n.s.ValueValidation == nil {
		return "", typedFormat{}, false
	}
	f, ok := typedFormats[n.s.ValueValidation.Format]
	return n.s.ValueValidation.Format, f, ok
}

// unreadable reports whether a rule that reads a value of n may fail on a
// value the apiserver stored.
func (n *node) unreadable() bool {
	_, f, ok := n.format()
	return ok && f.unreadable != ""
}

// presenceReadable refuses to test the presence of the property n where
// that reads a value the apiserver may not be able to read: has() on a
// property converts its value, and fails on such a value, and CEL has no
// other test of a property's presence (a typed object cannot be iterated
// for its keys), so the rule would deny updates of an object holding one.
// Under the opt-in (formats.go) that denial is the stated meaning
// (semantics.md 8), and the rule is emitted.
func (g *exprGen) presenceReadable(n *node) error {
	name, f, ok := n.format()
	if !ok || f.unreadable == "" || g.formatsAsValues || g.plainValues {
		return nil
	}
	return cannot(ReasonFormat, "%s is a string with format %s, and the apiserver's CEL tests whether a property is set by reading its value, which fails on spellings its write validation stores (%s), so a rule on its presence would deny updates of an object holding one; %s", n.userPath(), name, f.unreadable, optInHint)
}

// formatComparable refuses a string whose CEL value has several stored
// spellings, unless the declaration compares them as values: no rule can
// compare the strings.
func (g *exprGen) formatComparable(n *node) error {
	name, f, ok := n.format()
	if !ok || f.spellings == "" || g.formatsAsValues || g.plainValues {
		return nil
	}
	return cannot(ReasonFormat, "the value at %s is a string with format %s, which the apiserver's CEL reads as %s and compares as such (%s are equal), so no rule can see every change of the stored string; %s, remove the format (a pattern can check the string instead) or leave the field out of the declaration", n.userPath(), name, f.celType, f.spellings, optInHint)
}

// optInHint names the opt-in in the refusals it lifts. Library messages
// name the modifier, and the option of the whole run by the words of
// RunWideFormats, which a command replaces with its flag.
const optInHint = "to accept respellings of one value as no change, add " + decl.ExtFormats + ": " + decl.CompareAsValues + " beside the declaration (or " + RunWideFormats + ")"

// RunWideFormats are the words refusals use for
// Options.CompareFormatsAsValues.
const RunWideFormats = "the run-wide option"

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
