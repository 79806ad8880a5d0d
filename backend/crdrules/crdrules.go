package crdrules

import (
	"fmt"
	"sort"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/plan"
)

// Edits writes p, with the rules of each version by its name, into the
// CRD c was read from, version by version. A version without rules gets
// no bound either.
func Edits(c *crd.CRD, p *plan.Plan, rules map[string]*VersionRules) ([]edit.Edit, error) {
	var edits []edit.Edit
	for _, pv := range p.Versions {
		v, ok := c.Version(pv.Name)
		if !ok {
			return nil, fmt.Errorf("the plan has version %s, the CRD does not", pv.Name)
		}
		e, err := VersionEdits(v, pv, rules[pv.Name])
		if err != nil {
			return nil, err
		}
		edits = append(edits, e...)
	}
	return edits, nil
}

// VersionEdits writes the plan of one version and its rules vr into its
// schema: the declarations written there removed, the rules appended at
// their hosts, and their bounds set. Without rules (vr nil) only the
// declarations are removed.
func VersionEdits(v *crd.Version, pv plan.Version, vr *VersionRules) ([]edit.Edit, error) {
	var rules []Rule
	var bounds []plan.Bound
	if vr != nil {
		rules, bounds = vr.Rules, vr.Bounds
	}
	w := &writer{v: v, at: map[string]int{}}
	var hosts []decl.Path
	for _, d := range pv.Declarations {
		if d.Origin.Kind == decl.InSchema {
			hosts = append(hosts, d.Path)
		}
	}
	for _, r := range rules {
		hosts = append(hosts, r.Host)
	}
	sort.SliceStable(hosts, func(i, j int) bool { return plan.Less(hosts[i], hosts[j]) })
	for _, p := range hosts {
		if _, err := w.edit(p); err != nil {
			return nil, err
		}
	}
	for _, ext := range decl.Extensions {
		for _, d := range pv.Declarations {
			if d.Origin.Kind == decl.InSchema && d.Ext == ext {
				e, _ := w.edit(d.Path)
				e.Remove = append(e.Remove, ext)
			}
		}
	}
	for _, r := range rules {
		e, _ := w.edit(r.Host)
		e.AddRules = append(e.AddRules, r.Rule)
	}
	for _, b := range bounds {
		e, err := w.edit(b.Node)
		if err != nil {
			return nil, err
		}
		e.Set = append(e.Set, edit.Setting{Key: b.Keyword, Value: b.Value})
	}
	return w.edits, nil
}

// writer keeps one edit per schema node of a version, in the order the
// nodes were first named.
type writer struct {
	v     *crd.Version
	edits []edit.Edit
	at    map[string]int // by decl.Path.String()
}

// edit returns the edit of the node p names, adding it after the others
// when p is new.
func (w *writer) edit(p decl.Path) (*edit.Edit, error) {
	k := p.String()
	if i, ok := w.at[k]; ok {
		return &w.edits[i], nil
	}
	path, ok := w.v.Node(p)
	if !ok {
		return nil, fmt.Errorf("version %s has no schema node %s, which the plan names", w.v.Name, p)
	}
	w.at[k] = len(w.edits)
	w.edits = append(w.edits, edit.Edit{Path: path})
	return &w.edits[len(w.edits)-1], nil
}
