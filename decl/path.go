package decl

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/mut2cel/mut2cel/internal/diag"
)

// Path is a schema path relative to a version's openAPIV3Schema, the one
// form every message, the annotation and the declarations file use:
//
//	.                       the schema root
//	.spec.controllerName    properties spec, then controllerName
//	.spec.tags[*]           the items of the list spec.tags
//	.spec.labels[*]         the values of the map spec.labels
//	.spec["a.b"]            a property whose name is not letters, digits, _ and -
//
// "[*]" stands for both items and additionalProperties because a
// structural schema node is either a list or an object, never both.
type Path []Step

// Step is one step of a Path: a property name, or the entries of a list
// or map (Entries true).
type Step struct {
	Name    string
	Entries bool
}

// plainName is a property name written without brackets.
var plainName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// String writes p in its shortest notation.
func (p Path) String() string {
	var b strings.Builder
	for _, s := range p {
		switch {
		case s.Entries:
			b.WriteString("[*]")
		case plainName.MatchString(s.Name):
			b.WriteString("." + s.Name)
		default:
			b.WriteString("[" + JSONString(s.Name) + "]")
		}
	}
	if b.Len() == 0 {
		return "."
	}
	return b.String()
}

// Child returns p with s appended, sharing nothing with p.
func (p Path) Child(s Step) Path {
	return append(append(make(Path, 0, len(p)+1), p...), s)
}

// IsEntry reports whether p names the items or values of a collection.
func (p Path) IsEntry() bool { return len(p) > 0 && p[len(p)-1].Entries }

// PathOf reads a schema-relative document path (properties/NAME, items,
// additionalProperties steps; other steps are skipped).
func PathOf(rel []interface{}) Path {
	var p Path
	for i := 0; i < len(rel); i++ {
		switch rel[i] {
		case "properties":
			i++
			name, _ := rel[i].(string)
			p = append(p, Step{Name: name})
		case "items", "additionalProperties":
			p = append(p, Step{Entries: true})
		}
	}
	return p
}

// ParsePath reads a path in the notation of String.
func ParsePath(s string) (Path, error) {
	if s == "." {
		return Path{}, nil
	}
	if !strings.HasPrefix(s, ".") && !strings.HasPrefix(s, "[") {
		return nil, fmt.Errorf("path %q must start with \".\" (the schema root), as in .spec.field", s)
	}
	var p Path
	for rest := s; rest != ""; {
		switch {
		case strings.HasPrefix(rest, "[*]"):
			p, rest = append(p, Step{Entries: true}), rest[3:]
		case strings.HasPrefix(rest, `["`):
			name, n, err := readQuoted(rest[1:])
			if err != nil || !strings.HasPrefix(rest[1+n:], "]") {
				return nil, fmt.Errorf("path %q: a bracketed name is a JSON string, as in [\"a.b\"]", s)
			}
			p, rest = append(p, Step{Name: name}), rest[2+n:]
		case strings.HasPrefix(rest, "."):
			n := 1
			for n < len(rest) && rest[n] != '.' && rest[n] != '[' {
				n++
			}
			if !plainName.MatchString(rest[1:n]) {
				return nil, fmt.Errorf("path %q: write the property name %q as [%s]", s, rest[1:n], JSONString(rest[1:n]))
			}
			p, rest = append(p, Step{Name: rest[1:n]}), rest[n:]
		default:
			return nil, fmt.Errorf("path %q: expected .name, [\"name\"] or [*] at %q", s, rest)
		}
	}
	return p, nil
}

// readQuoted reads the JSON string at the start of s and returns it and
// its length in s.
func readQuoted(s string) (string, int, error) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			var out string
			err := json.Unmarshal([]byte(s[:i+1]), &out)
			return out, i + 1, err
		}
	}
	return "", 0, fmt.Errorf("unterminated string")
}

// Resolve finds the schema node p names in the raw schema root and
// returns its document path relative to root, or false when the schema
// has no such node.
func (p Path) Resolve(root map[string]interface{}) ([]interface{}, bool) {
	var rel []interface{}
	cur := root
	for _, st := range p {
		var next map[string]interface{}
		switch {
		case !st.Entries:
			props, _ := cur["properties"].(map[string]interface{})
			next, _ = props[st.Name].(map[string]interface{})
			rel = append(rel, "properties", st.Name)
		case cur["items"] != nil:
			next, _ = cur["items"].(map[string]interface{})
			rel = append(rel, "items")
		default:
			next, _ = cur["additionalProperties"].(map[string]interface{})
			rel = append(rel, "additionalProperties")
		}
		if next == nil {
			return nil, false
		}
		cur = next
	}
	return rel, true
}

// Nearest returns the path of a schema node below root, as many steps
// down as p, that a few typing mistakes turn p into, for a "did you mean"
// where p resolves to nothing: at most diag.MaxTypos in all, and in each step
// at most a third of its name (one at least), so that a short name is
// not taken for another short name.
func (p Path) Nearest(root map[string]interface{}) (Path, bool) {
	var best Path
	least := diag.MaxTypos + 1
	var walk func(node map[string]interface{}, at Path, typed int)
	walk = func(node map[string]interface{}, at Path, typed int) {
		if len(at) == len(p) {
			if typed < least || typed == least && at.String() < best.String() {
				best, least = at, typed
			}
			return
		}
		want := p[len(at)]
		if !want.Entries {
			props, _ := node["properties"].(map[string]interface{})
			for name, child := range props {
				d := diag.Typos(strings.ToLower(want.Name), strings.ToLower(name))
				m, ok := child.(map[string]interface{})
				if ok && d <= max(1, len(want.Name)/3) && typed+d <= diag.MaxTypos {
					walk(m, at.Child(Step{Name: name}), typed+d)
				}
			}
			return
		}
		for _, key := range []string{"items", "additionalProperties"} {
			if m, ok := node[key].(map[string]interface{}); ok {
				walk(m, at.Child(Step{Entries: true}), typed)
			}
		}
	}
	walk(root, nil, 0)
	return best, least <= diag.MaxTypos
}

// JSONString quotes s as JSON without HTML escapes. What encoding/json
// leaves as it is and a terminal acts on (DEL, C1 controls, bidirectional
// formatting) is escaped too, as \u007f: the quoted name is shown in
// messages, and YAML, where the annotation keeps it, allows none of the C1
// controls unescaped.
func JSONString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	out := strings.TrimSuffix(b.String(), "\n")
	if diag.IsPrintable(out) {
		return out
	}
	b.Reset()
	for _, r := range out {
		if diag.UnsafeRune(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}
