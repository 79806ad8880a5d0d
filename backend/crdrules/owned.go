package crdrules

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

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

// Owned are the rules of a CRD that an earlier run generated.
type Owned struct {
	c     *crd.CRD
	rules []ownedRule
	// Lost are the fingerprints of the record that lead to no entry or
	// to several: those entries stay as the user's own rules.
	Lost []LostRule
}

// LostRule is one fingerprint of the record that does not lead to
// exactly one entry.
type LostRule struct {
	Version, Path, Fingerprint string
	Hits                       int // how many entries have it
}

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

// FindOwned finds the entries c's record lists, and the fingerprints
// that do not lead to exactly one.
func FindOwned(c *crd.CRD) *Owned {
	o := &Owned{c: c}
	rec := c.Own.Record
	claimed := map[string]bool{}
	for _, v := range decl.OrderVersions(c.VersionNames(), rec) {
		for _, p := range slices.Sorted(maps.Keys(rec[v])) {
			for _, fp := range rec[v][p] {
				hits := unclaimed(locate(c, v, p, fp), claimed)
				if len(hits) != 1 {
					o.Lost = append(o.Lost, LostRule{Version: v, Path: p, Fingerprint: fp, Hits: len(hits)})
					continue
				}
				claimed[hits[0].key] = true
				o.rules = append(o.rules, ownedRule{hits[0].node, hits[0].rule})
			}
		}
	}
	return o
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
func locate(c *crd.CRD, version, path, fp string) []ruleHit {
	v, exists := c.Version(version)
	if !exists {
		var hits []ruleHit
		for _, w := range c.Versions {
			if _, recorded := c.Own.Record[w.Name]; !recorded && c.First(w) {
				hits = append(hits, search(c, w, fp)...)
			}
		}
		return hits
	}
	if steps, err := decl.ParsePath(path); err == nil {
		if node, ok := v.Node(steps); ok {
			if hits := entriesWith(c, node, fp); len(hits) == 1 {
				return hits
			}
		}
	}
	return search(c, v, fp)
}

// search finds the entries with fingerprint fp in one version schema.
func search(c *crd.CRD, v *crd.Version, fp string) []ruleHit {
	var hits []ruleHit
	v.Walk(func(path []interface{}, _ map[string]interface{}) {
		hits = append(hits, entriesWith(c, path, fp)...)
	})
	return hits
}

// entriesWith returns the rule entries of one node with fingerprint fp.
func entriesWith(c *crd.CRD, node []interface{}, fp string) []ruleHit {
	m, _ := c.Mapping(node)
	list, _ := m[edit.ValidationsKey].([]interface{})
	var hits []ruleHit
	for i, entry := range list {
		if r, ok := edit.RuleOf(entry); ok && decl.Fingerprint(entry) == fp {
			hits = append(hits, ruleHit{node: node, rule: r, key: fmt.Sprintf("%s/%d", pathKey(node), i)})
		}
	}
	return hits
}

// removals groups the owned entries by node, as RemoveRules edits, in
// the order they were found.
func (o *Owned) removals() []edit.Edit {
	var edits []edit.Edit
	index := map[string]int{}
	for _, r := range o.rules {
		k := pathKey(r.node)
		i, ok := index[k]
		if !ok {
			i, index[k] = len(edits), len(edits)
			edits = append(edits, edit.Edit{Path: r.node})
		}
		edits[i].RemoveRules = append(edits[i].RemoveRules, r.rule)
	}
	return edits
}

// SetAside are the edits that take away the rules mut2cel owns and its
// two annotations, so that the compiler sees the rules the user wrote and
// nothing else. With InlineRemovals as well, what is left is the CRD as
// it was before anyone declared anything (translate's Result.Base).
func (o *Owned) SetAside() []edit.Edit {
	edits := o.removals()
	if e, ok := dropAnnotations(o.c); ok {
		edits = append(edits, e)
	}
	return edits
}

// pathKey makes a document path usable as a map key.
func pathKey(path []interface{}) string {
	data, _ := json.Marshal(path)
	return string(data)
}
