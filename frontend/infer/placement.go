package infer

import (
	"maps"
	"slices"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/frontend/infer/phrases"
	"github.com/mut2cel/mut2cel/frontend/infer/ruleshape"
)

// placed keeps of c what may stand on node p (docs/semantics.md 1.1 and
// 9.2): nothing on the root; no presence constraint on list items or map
// values (an entry that comes and goes is a key of its collection); key
// constraints only on lists and maps, and not beside NoModify, which
// keeps the keys already.
func (g *gathered) placed(p decl.Path, c decl.Constraints) decl.Constraints {
	if len(p) == 0 || inRootMetadata(p) {
		return 0
	}
	if p.IsEntry() {
		c &^= decl.Presence
	}
	if !g.isCollection(p) || c.Has(decl.NoModify) {
		c &^= decl.KeyConstraints
	}
	return c
}

// isCollection reports whether p is a list, or a map with an
// additionalProperties schema.
func (g *gathered) isCollection(p decl.Path) bool {
	node, _ := g.version.NodeAt(p)
	if t, _ := node["type"].(string); t == "array" {
		return true
	}
	_, isMap := node["additionalProperties"].(map[string]interface{})
	return isMap
}

// collection reads the collection shapes of a node's rules against its
// schema: the key constraints they keep, whether the entries' values are
// kept too, notes, and why they are doubtful.
func (g *gathered) collection(f *facts) (decl.Constraints, bool, []string, string) {
	if len(f.keys) == 0 {
		return 0, false, nil, ""
	}
	node, _ := g.version.NodeAt(f.path)
	listType, _ := node["x-kubernetes-list-type"].(string)
	isList := node["type"] == "array"
	_, isMap := node["additionalProperties"].(map[string]interface{})
	mapKeys, _ := node["x-kubernetes-list-map-keys"].([]interface{})
	var keys decl.Constraints
	entries := false
	doubt := ""
	for _, k := range f.keys {
		s := k.shape
		switch {
		case s.By == ruleshape.ByMember && (isMap || isList && listType == "set"):
			keys |= s.Keep
		case s.By == ruleshape.ByMember && isList && listType == "map":
			keys, entries = keys|s.Keep, true
		case s.By == ruleshape.ByKey && isList && listType == "map" && len(mapKeys) == 1 && mapKeys[0] == s.Key:
			keys |= s.Keep
		case s.By == ruleshape.ByValue && isMap:
			keys, entries = keys|s.Keep, true
		case s.By == ruleshape.BySize && isList && (listType == "" || listType == "atomic"):
			keys |= s.Keep
		default:
			doubt = joinWhy(doubt, "the rule "+phrases.Quote(k.evidence.Text, 80)+" does not compare what this collection's keys are (docs/semantics.md 2.2)")
			keys |= s.Keep
		}
	}
	var notes []string
	if entries {
		notes = append(notes, "the rule compares whole entries, so it keeps their values too: NoModify on the entries")
	}
	return keys, entries, notes, doubt
}

// keysReading says what a collection shape reads as.
func keysReading(s ruleshape.Keys) string {
	what := map[ruleshape.Comparison]string{ruleshape.ByMember: "entries", ruleshape.ByKey: "keys " + s.Key,
		ruleshape.ByValue: "entries and their values", ruleshape.BySize: "size"}[s.By]
	return "keeps " + what + ": " + s.Keep.String()
}

// comparedAsCEL reports whether a published rule compares node p's old
// and new values with == and the node holds strings the apiserver's CEL
// reads as other values (date-time, duration, byte): the rule accepts
// their respellings as no change, and so must the declaration that
// stands for it (docs/semantics.md 8).
func (g *gathered) comparedAsCEL(p decl.Path, _ []Evidence) bool {
	f, ok := g.nodes[p.String()]
	if !ok || !f.compares {
		return false
	}
	node, _ := g.version.NodeAt(p)
	return holdsFormats(node)
}

// holdsFormats reports whether a schema node or one below it is a string
// of format date-time, duration or byte.
func holdsFormats(node map[string]interface{}) bool {
	switch node["format"] {
	case "date-time", "duration", "byte":
		if node["type"] == "string" {
			return true
		}
	}
	props, _ := node["properties"].(map[string]interface{})
	for _, c := range props {
		if m, ok := c.(map[string]interface{}); ok && holdsFormats(m) {
			return true
		}
	}
	for _, k := range []string{"items", "additionalProperties"} {
		if m, ok := node[k].(map[string]interface{}); ok && holdsFormats(m) {
			return true
		}
	}
	return false
}

// contradictions makes doubtful the proposals whose text says more than
// a field below them allows in its own words.
func (g *gathered) contradictions(list []*Proposal) {
	for _, pr := range list {
		if pr.Doubt != "" || pr.constraints == 0 {
			continue
		}
		f := g.nodes[pr.Path.String()]
		textOnly := pr.constraints
		if f != nil {
			textOnly &^= f.enforced
		}
		if !textOnly.Has(decl.NoModify) && !textOnly.Has(decl.NoSet) {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(g.nodes)) {
			d := g.nodes[k]
			if !below(d.path, pr.Path) {
				continue
			}
			if why, ok := allowance(d); ok {
				pr.Doubt = "the CRD says of " + d.path.String() + ", below it, that it " + why + ", which this would forbid"
				break
			}
		}
	}
}

// allowance says what a field allows in its own words, against the
// constraints it is itself said to have.
func allowance(d *facts) (string, bool) {
	switch {
	case (d.textAllowsSet || d.ruleAllowsSet) && !d.strong.Has(decl.NoSet):
		return "may be set after creation", true
	case d.ruleAllowsUnset && !d.strong.Has(decl.NoUnset):
		return "may be cleared", true
	}
	return "", false
}
