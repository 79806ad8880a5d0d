package decl

import (
	"errors"
	"strings"
)

// Kind is one kind of declaration: the schema extension that carries it
// and how every reader and writer of declarations handles its value.
// Every front end, the annotation codec, the spelling check and the
// stripping of schemas iterate Kinds, so that a new kind is one entry
// there, its compiler (translate) and its meaning in the reference
// checker (verify), each of which decides on its own what the kind
// means and where it may stand.
type Kind struct {
	// Name is the schema extension key, the same in a schema, the
	// mut2cel.io/declarations annotation and a declarations file.
	Name string
	// Placement says in words where a declaration of the kind may stand
	// (docs/semantics.md). Readers decide it each on its own and word
	// their refusals with wording.go.
	Placement string
	// words are what a key must hold after the x-kubernetes- prefix to
	// be taken for a misspelling of Name (Misspelling): all of them, in
	// lower case.
	words []string
	// read gives a decoded value (YAML or JSON) in normalized text, the
	// form Declaration.Value and the annotation keep. It checks only
	// what a reader needs to keep the value: where a schema stands beside
	// it, the reader places a wrong value with its path.
	read func(v interface{}) (string, error)
	// check refuses, in normalized text, the values read accepts but no
	// compiler does. Readers that have no schema to place the problem in
	// (declarations files, Go markers) call it at once.
	check func(value string) error
	// write turns normalized text back into the decoded value a schema
	// holds.
	write func(value string) interface{}
	// flow says that normalized text is a YAML flow value, written into
	// the annotation as it is; other values are written as strings.
	flow bool
	// combine joins two declarations of the kind on one node from a front
	// end where they add up (repeated Go markers); nil when they must be
	// equal.
	combine func(a, b string) (string, error)
	// modifier: the kind changes what the other declarations on its node
	// mean, and stands only beside one (Modifier).
	modifier bool
}

// Kinds are the kinds of declaration, in the order they are read and
// written on a node.
var Kinds = []Kind{
	{
		Name:      ExtMutability,
		Placement: "a field below the root, outside metadata and junctors (list items and map values included); on a list or map only Immutable",
		words:     []string{"mutab"},
		read:      readKEP, check: checkKEP, write: writeString,
	},
	{
		Name:      ExtKeyMutability,
		Placement: "a list (type: array) or a map (type: object with an additionalProperties schema) below the root, outside metadata and junctors",
		words:     []string{"mutab", "key"},
		read:      readKEP, check: checkKEP, write: writeString,
	},
	{
		Name:      ExtUpdate,
		Placement: "a field below the root, outside metadata and junctors; NoSet and NoUnset not on list items or map values, NoAddItem and NoRemoveItem only on a list or map",
		words:     []string{"updat"},
		read:      readUpdate, check: func(string) error { return nil }, write: writeConstraints,
		flow: true, combine: combineConstraints,
	},
	{
		Name:      ExtUnions,
		Placement: "an object node with properties (the root, nested objects, list items and map values), outside metadata and junctors; members and the discriminator are properties of that node",
		words:     []string{"union"},
		read:      readUnions, check: checkUnions, write: writeUnions,
		flow: true,
	},
	{
		Name:      ExtFormats,
		Placement: "beside a declaration of another kind on the same node; it applies to the declarations there and to everything they cover",
		words:     []string{"format"},
		read:      readFormats, check: checkFormats, write: writeString,
		modifier: true,
	},
}

// KindNamed returns the kind whose extension key is name.
func KindNamed(name string) (Kind, bool) {
	for _, k := range Kinds {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

// KindNames lists the extension keys of the Kinds that declare (not the
// modifiers, which only stand beside them), joined by sep and the last by
// last: KindNames(", ", " or ").
func KindNames(sep, last string) string {
	var names []string
	for _, k := range Kinds {
		if !k.modifier {
			names = append(names, k.Name)
		}
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], sep) + last + names[len(names)-1]
}

// Extensions lists the extension keys of Kinds, in their order.
var Extensions = kindNames()

func kindNames() []string {
	out := make([]string, len(Kinds))
	for i, k := range Kinds {
		out[i] = k.Name
	}
	return out
}

// Read gives a decoded value in normalized text, or why it does not read.
// A value read but not checked may still be one no compiler takes
// (Check).
func (k Kind) Read(v interface{}) (string, error) { return k.read(v) }

// Check says why a value in normalized text is none the kind takes.
func (k Kind) Check(value string) error { return k.check(value) }

// ReadChecked is Read then Check, for readers with no schema beside the
// value.
func (k Kind) ReadChecked(v interface{}) (string, error) {
	s, err := k.read(v)
	var u *UnsupportedValue
	switch {
	case errors.As(err, &u):
		// Without a schema to place it, a value of the wrong type is
		// said the way a wrong string is.
		return "", &UnsupportedValue{Value: v, Supported: u.Supported}
	case err == nil:
		err = k.check(s)
	}
	return s, err
}

// Write gives the decoded value a schema holds for a value in normalized
// text.
func (k Kind) Write(value string) interface{} { return k.write(value) }

// Combine joins two values declared on one node by a front end whose
// declarations add up; equal values are one, and different values of a
// kind that does not add up are an error.
func (k Kind) Combine(a, b string) (string, error) {
	if k.combine != nil {
		return k.combine(a, b)
	}
	if a != b {
		return "", errors.New("declared twice with different values")
	}
	return a, nil
}

// Adds reports whether declarations of the kind on one node add up
// (Combine) rather than having to agree.
func (k Kind) Adds() bool { return k.combine != nil }

// UnsupportedValue is the error of a value of a kind that takes one of a
// few strings.
type UnsupportedValue struct {
	Value     interface{}
	Supported []string
	// NotString: the value is not a string at all.
	NotString bool
}

func (e *UnsupportedValue) Error() string {
	if e.NotString {
		return "must be a string, one of " + strings.Join(e.Supported, ", ")
	}
	return "want one of " + strings.Join(e.Supported, ", ")
}

var kepValues = []string{Immutable, AddOnly, RemoveOnly}

// readKEP keeps the string written; whether it is one of the three is
// checked where it stands (checkKEP).
func readKEP(v interface{}) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", &UnsupportedValue{Value: v, Supported: kepValues, NotString: true}
	}
	return s, nil
}

func checkKEP(s string) error {
	if _, _, ok := KEP(ExtMutability, s, false); !ok {
		return &UnsupportedValue{Value: s, Supported: kepValues}
	}
	return nil
}

func writeString(value string) interface{} { return value }

func readUpdate(v interface{}) (string, error) {
	c, err := ParseUpdate(v)
	if err != nil {
		return "", err
	}
	return c.String(), nil
}

// writeConstraints writes the list of names; text that does not parse,
// which no reader yields, is written as it is.
func writeConstraints(value string) interface{} {
	c, err := ParseConstraints(value)
	if err != nil {
		return value
	}
	list := []interface{}{}
	for _, name := range c.List() {
		list = append(list, name)
	}
	return list
}

func combineConstraints(a, b string) (string, error) {
	ca, err := ParseConstraints(a)
	if err != nil {
		return "", err
	}
	cb, err := ParseConstraints(b)
	if err != nil {
		return "", err
	}
	return (ca | cb).String(), nil
}
