package builtin

import (
	"fmt"
	"strconv"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/limits"
)

// expansion is the size of what the kinds read from one document have
// expanded to, counted as their vehicle CRD documents hold it once written
// as YAML: values (mapping keys and values, list items), bytes, with the
// indentation of each line, and levels of nesting. A reference copies the
// schema it names wherever it is named, so a small document can expand
// to any size: three schemas of 200 properties naming one another make 8
// million. The count is held to the limits of what one run reads
// (internal/limits), as the vehicles are read as inputs of the run.
//
// Bytes bound the work as well as the memory: every node costs at least
// the indentation of its depth, and reading a node takes time in
// proportion to its depth (its path), so the work of a whole expansion
// is at most in proportion to its bytes.
type expansion struct {
	values, bytes int
	// kinds is the number of kinds read before, for messages.
	kinds int
	// deepest is the nesting of the deepest value counted.
	deepest int
}

// rootLevel is the nesting of a kind's schema root in its vehicle
// document: the document, spec, versions, the version, schema and
// openAPIV3Schema.
const rootLevel = 6

// level is the nesting of the node at path: a property is two levels
// below its object (properties, then its name), items and
// additionalProperties one.
func level(path decl.Path) int {
	n := rootLevel
	for _, s := range path {
		if s.Entries {
			n++
		} else {
			n += 2
		}
	}
	return n
}

// line is the bytes of a line of YAML at nesting n holding text: its
// indentation, the text, a separator (": ", "- ") and the newline.
func line(n, text int) int { return 2*n + text + 3 }

// add counts a node of the schema at nesting n (level), whose schema
// children (properties, items, additionalProperties) counted
// themselves, and returns how deep its own values nest.
func (e *expansion) add(out map[string]interface{}, n int) int {
	deepest := n
	for k, v := range out {
		e.values += 2
		e.bytes += line(n, len(k))
		switch k {
		case "properties":
			props, _ := v.(map[string]interface{})
			for name := range props {
				e.values += 2
				e.bytes += line(n+1, len(name))
			}
			deepest = max(deepest, n+1)
		case "items", "additionalProperties":
		default:
			deepest = max(deepest, e.value(v, n+1))
		}
	}
	e.deepest = max(e.deepest, deepest)
	return deepest
}

// required counts names added to the required list of the node at path,
// after it was counted; had says whether the node had the list.
func (e *expansion) required(added []interface{}, had bool, path decl.Path) {
	n := level(path)
	if !had {
		e.values += 2
		e.bytes += line(n, len("required"))
	}
	e.value(added, n+1)
}

// value counts a value a node keeps as the document wrote it (an enum, a
// default, required names), at nesting n, and returns how deep it
// nests. Each of its values was counted with its key or as an item.
func (e *expansion) value(v interface{}, n int) int {
	switch v := v.(type) {
	case map[string]interface{}:
		deepest := n
		for k, item := range v {
			e.values += 2
			e.bytes += line(n, len(k))
			deepest = max(deepest, e.value(item, n+1))
		}
		return deepest
	case []interface{}:
		deepest := n
		for _, item := range v {
			e.values++
			e.bytes += line(n, 0)
			deepest = max(deepest, e.value(item, n+1))
		}
		return deepest
	case string:
		e.bytes += len(v) + 2 // quoted where YAML needs it
	default:
		// A number, a boolean or null: 24 bytes hold the longest, a
		// float64 written in full (-1.2345678901234567e-308).
		e.bytes += 24
	}
	return n - 1
}

// over reports whether the expansion holds more values or bytes than a
// run reads.
func (e *expansion) over() bool {
	return e.values > limits.Values || e.bytes > limits.InputBytes
}

// overError is the error of an expansion over, at the node at path; in
// names the schema being read there when it is not the kind's own.
func (e *expansion) overError(path decl.Path, in string) error {
	what := "holds more than " + thousands(limits.Values) + " values (mapping keys and values, list items)"
	if e.values <= limits.Values {
		what = fmt.Sprintf("holds more than %d MiB", limits.InputBytes>>20)
	}
	with := "with its references resolved"
	if e.kinds > 0 {
		with += " and the kinds read from the document before it"
	}
	return fmt.Errorf("%s%s: %s, the schema %s, the most mut2cel reads in one run (docs/limits.md)", path, in, with, what)
}

// tooDeep is the error of a node at path that nests past limits.Nesting.
func tooDeep(path decl.Path, in string) error {
	return fmt.Errorf("%s%s: with its references resolved, the schema nests deeper than %s levels, the most mut2cel reads (docs/limits.md)", path, in, thousands(limits.Nesting))
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
