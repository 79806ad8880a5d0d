package crd

// Where the apiserver's CEL values of a CRD's objects differ from the
// stored JSON (semantics.md 8). The apiserver converts a stored object to
// CEL values lazily, node by node, in k8s.io/apiserver/pkg/cel/common
// (UnstructuredToVal); which rules may be written over such strings, and
// what they mean, follows from this table.

// TypedFormat is a string format that the apiserver's CEL reads as a
// value of another type: UnstructuredToVal parses the string, and
// SchemaDeclType declares the field with that type.
type TypedFormat struct {
	CELType string
	// Spellings names two stored strings of one CEL value; empty where
	// every value has exactly one spelling that the apiserver accepts on
	// write, so that == on the values is == on the strings.
	Spellings string
	// Unreadable, where set, is a string the apiserver accepts on write
	// but its CEL cannot convert: any rule that reads such a value fails,
	// even has() and map lookups (in).
	Unreadable string
}

// TypedFormats lists the formats UnstructuredToVal converts, by the exact
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
var TypedFormats = map[string]TypedFormat{
	"date":      {CELType: "timestamp"},
	"date-time": {CELType: "timestamp", Spellings: "2024-05-01T10:00:00Z and 2024-05-01T12:00:00+02:00", Unreadable: "2024-05-01t10:00:00z"},
	"duration":  {CELType: "duration", Spellings: "1h and 60m"},
	"byte":      {CELType: "bytes", Spellings: "YQ== and YR==", Unreadable: "+/8="},
}

// Format returns the typed format of a string node, if it has one.
func (n *Node) Format() (string, TypedFormat, bool) {
	if n.Schema.Type != "string" || n.Schema.ValueValidation == nil {
		return "", TypedFormat{}, false
	}
	f, ok := TypedFormats[n.Schema.ValueValidation.Format]
	return n.Schema.ValueValidation.Format, f, ok
}

// Unreadable reports whether a rule that reads a value of n may fail on a
// value the apiserver stored.
func (n *Node) Unreadable() bool {
	_, f, ok := n.Format()
	return ok && f.Unreadable != ""
}

// SpelledFormatIn reports whether a string at or below n has a format
// whose CEL value has several spellings.
func SpelledFormatIn(n *Node) bool {
	found := false
	if n != nil {
		n.Walk(func(c *Node) {
			if _, f, ok := c.Format(); ok && f.Spellings != "" {
				found = true
			}
		})
	}
	return found
}
