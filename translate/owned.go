package translate

import (
	"fmt"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
)

// Which x-kubernetes-validations entries mut2cel owns. The generated-rules
// annotation lists, per version and node path, the fingerprint of every
// rule mut2cel added. An entry is owned when its fingerprint is listed and
// it is found where the list says, or, failing that, on exactly one node
// of the same version (its node moved), or of a version the annotation
// does not name (the version was renamed). Anything else is the user's:
// an entry that was edited no longer has its fingerprint and is never
// removed.

// ownedRule is one owned entry and the document path of its node.
type ownedRule struct {
	node []interface{}
	rule edit.Rule
}

// ruleHit is an entry found by fingerprint.
type ruleHit struct {
	node []interface{}
	rule edit.Rule
	key  string // node and index, so that no entry is owned twice
}

// findOwned returns the owned entries, and a warning for every listed
// fingerprint that does not lead to exactly one entry.
func findOwned(doc map[string]interface{}, st *state) ([]ownedRule, []Problem) {
	var owned []ownedRule
	var warnings []Problem
	claimed := map[string]bool{}
	for _, v := range orderVersions(st.versions, st.rec) {
		for _, p := range sortedNames(st.rec[v]) {
			for _, fp := range st.rec[v][p] {
				hits := unclaimed(locate(doc, st, v, p, fp), claimed)
				if len(hits) != 1 {
					warnings = append(warnings, lostRuleWarning(v, p, fp, len(hits)))
					continue
				}
				claimed[hits[0].key] = true
				owned = append(owned, ownedRule{hits[0].node, hits[0].rule})
			}
		}
	}
	return owned, warnings
}

func lostRuleWarning(version, path, fp string, hits int) Problem {
	if hits == 0 {
		return annotationProblem(annGenerated, newProblem("", "version %s, %s: generated rule %s is no longer there as mut2cel wrote it (edited or deleted by hand, or its node is gone): an edited copy stays as your own rule, and the rules the declarations need are generated again", version, path, fp))
	}
	return annotationProblem(annGenerated, newProblem("", "version %s, %s: generated rule %s was found on %d nodes: all are kept as your own rules, and the rules the declarations need are generated again", version, path, fp, hits))
}

func unclaimed(hits []ruleHit, claimed map[string]bool) []ruleHit {
	var out []ruleHit
	for _, h := range hits {
		if !claimed[h.key] {
			out = append(out, h)
		}
	}
	return out
}

// locate finds the entries with fingerprint fp: at the recorded node of
// the recorded version, else anywhere in that version, else, when the
// version is gone, in the versions the record does not name.
func locate(doc map[string]interface{}, st *state, version, path, fp string) []ruleHit {
	root, exists := st.roots[version]
	if !exists {
		var hits []ruleHit
		for _, v := range st.versions {
			if _, recorded := st.rec[v]; !recorded && st.roots[v] != nil {
				hits = append(hits, search(doc, st.roots[v], fp)...)
			}
		}
		return hits
	}
	if root == nil {
		return nil
	}
	if steps, err := decl.ParsePath(path); err == nil {
		raw, _ := nestedMap(doc, root...)
		if node, ok := resolveDeclPath(raw, root, steps); ok {
			if hits := entriesWith(doc, node, fp); len(hits) == 1 {
				return hits
			}
		}
	}
	return search(doc, root, fp)
}

// search finds the entries with fingerprint fp in one version schema.
func search(doc map[string]interface{}, root []interface{}, fp string) []ruleHit {
	raw, _ := nestedMap(doc, root...)
	var hits []ruleHit
	walkSchema(raw, root, func(path []interface{}, _ map[string]interface{}) {
		hits = append(hits, entriesWith(doc, path, fp)...)
	})
	return hits
}

// entriesWith returns the rule entries of one node with fingerprint fp.
func entriesWith(doc map[string]interface{}, node []interface{}, fp string) []ruleHit {
	m, _ := nestedMap(doc, node...)
	list, _ := m[edit.ValidationsKey].([]interface{})
	var hits []ruleHit
	for i, entry := range list {
		if r, ok := edit.RuleOf(entry); ok && fingerprint(entry) == fp {
			hits = append(hits, ruleHit{node: node, rule: r, key: fmt.Sprintf("%s/%d", pathKey(node), i)})
		}
	}
	return hits
}

// ownedEdits groups owned entries by node, as RemoveRules edits, in the
// order they were found.
func ownedEdits(owned []ownedRule) []edit.Edit {
	var edits []edit.Edit
	index := map[string]int{}
	for _, o := range owned {
		k := pathKey(o.node)
		i, ok := index[k]
		if !ok {
			i, index[k] = len(edits), len(edits)
			edits = append(edits, edit.Edit{Path: o.node})
		}
		edits[i].RemoveRules = append(edits[i].RemoveRules, o.rule)
	}
	return edits
}

// generatedRecord lists the fingerprints of the rules that edits add, by
// version name and node path.
func generatedRecord(edits []edit.Edit, st *state) record {
	rec := record{}
	for _, e := range edits {
		i, rel, ok := crd.Split(e.Path)
		if len(e.AddRules) == 0 || !ok {
			continue
		}
		version := st.versions[i]
		for _, r := range e.AddRules {
			rec.add(version, renderDeclPath(rel), fingerprint(r.Value()))
		}
	}
	return rec
}

// netEdits turns the edits that translate made to the source document
// (owned rules set aside, annotation declarations written in) into edits
// of the document as it is: owned rules that are generated again stay,
// the others are removed, new rules are appended, and only declarations
// that are really in the schema are removed.
func netEdits(doc map[string]interface{}, core []edit.Edit, owned []ownedRule) []edit.Edit {
	var out []edit.Edit
	ownedAt := map[string][]edit.Rule{}
	for _, e := range ownedEdits(owned) {
		ownedAt[pathKey(e.Path)] = e.RemoveRules
	}
	seen := map[string]bool{}
	for _, e := range core {
		k := pathKey(e.Path)
		seen[k] = true
		node, _ := nestedMap(doc, e.Path...)
		n := edit.Edit{Path: e.Path}
		for _, set := range e.Set {
			if v, ok := node[set.Key]; !ok || !sameScalar(v, set.Value) {
				n.Set = append(n.Set, set) // a bound already there is no edit
			}
		}
		for _, key := range e.Remove {
			if _, ok := node[key]; ok {
				n.Remove = append(n.Remove, key)
			}
		}
		n.RemoveRules, n.AddRules = ruleDifference(ownedAt[k], e.AddRules)
		if len(n.Remove)+len(n.RemoveRules)+len(n.Set)+len(n.AddRules) > 0 {
			out = append(out, n)
		}
	}
	for _, e := range ownedEdits(owned) {
		if !seen[pathKey(e.Path)] {
			out = append(out, e)
		}
	}
	return out
}

// ruleDifference returns the owned rules that are not generated again and
// the generated rules that are not there yet.
func ruleDifference(owned, generated []edit.Rule) (remove, add []edit.Rule) {
	for _, r := range owned {
		if !containsRule(generated, r) {
			remove = append(remove, r)
		}
	}
	for _, r := range generated {
		if !containsRule(owned, r) {
			add = append(add, r)
		}
	}
	return remove, add
}

func containsRule(rules []edit.Rule, r edit.Rule) bool {
	for _, x := range rules {
		if x == r {
			return true
		}
	}
	return false
}

// sameScalar compares a decoded value with a Setting value; decoded
// numbers may be int64 or float64.
func sameScalar(decoded, value interface{}) bool {
	switch v := value.(type) {
	case int64:
		switch d := decoded.(type) {
		case int64:
			return d == v
		case float64:
			return d == float64(v)
		}
		return false
	}
	return decoded == value
}
