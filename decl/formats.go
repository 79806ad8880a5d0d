package decl

// ExtFormats is the modifier that lets the declarations beside it compare
// the strings of format date-time, duration and byte as the apiserver's
// CEL reads them: as timestamps, durations and bytes, so that two
// spellings of one value are equal (docs/semantics.md, section 8,
// "Formatted strings compared as values"). It declares nothing on its
// own: written on a node without another declaration, it is an error.
const ExtFormats = "x-mut2cel-formats"

// CompareAsValues is the one value of ExtFormats.
const CompareAsValues = "CompareAsValues"

// Modifier reports whether declarations of the kind change the meaning
// of the other declarations on their node instead of declaring a
// constraint: they stand only beside one.
func (k Kind) Modifier() bool { return k.modifier }

// ModifierAlone says why a modifier cannot stand on a node that declares
// nothing else.
func ModifierAlone() string {
	return "modifies the declarations beside it, and this node declares nothing else: declare " +
		ExtMutability + ", " + ExtKeyMutability + " or " + ExtUpdate + " on it, or remove it"
}

func readFormats(v interface{}) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", &UnsupportedValue{Value: v, Supported: []string{CompareAsValues}, NotString: true}
	}
	return s, nil
}

func checkFormats(s string) error {
	if s != CompareAsValues {
		return &UnsupportedValue{Value: s, Supported: []string{CompareAsValues}}
	}
	return nil
}

// RunWideFormats are the words messages use for the option that makes a
// whole run compare formatted strings as values, which a command replaces
// with its flag.
const RunWideFormats = "the run-wide option"
