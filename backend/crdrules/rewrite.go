package crdrules

import (
	"fmt"
	"reflect"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/plan"
)

// The rewrite (docs/rewrite.md): a CRD translated before keeps its
// declarations in the mut2cel.io/declarations annotation and the
// fingerprints of the rules mut2cel generated in mut2cel.io/generated,
// so that a later run writes the same output from it, leaving in place
// the owned rules it generates again.

// written is a plan written into the CRD document it was compiled from.
type written struct {
	edits      []edit.Edit
	translated map[string]interface{}
	record     decl.Record
	fresh      []edit.Edit
}

// writeInto writes p and its rules, compiled from the CRD c with o set
// aside, into c's document, with the annotations that let a later run do
// the same.
func writeInto(c *crd.CRD, p *plan.Plan, rules map[string]*VersionRules, o *Owned) (*written, error) {
	fresh, err := Edits(c, p, rules)
	if err != nil {
		return nil, err
	}
	rec := generatedRecord(c, fresh)
	edits := netEdits(c, fresh, o)
	edits = append(edits, annotationEdits(c, p, rec)...)
	out, err := edit.Apply(c.Document(), edits)
	if err != nil {
		return nil, err
	}
	return &written{edits: edits, translated: out, record: rec, fresh: fresh}, nil
}

// InlineRemovals are the edits that take the declarations written in the
// schemas out.
func InlineRemovals(c *crd.CRD, decls []decl.Declaration) []edit.Edit {
	var edits []edit.Edit
	for _, d := range decls {
		if d.Origin.Kind == decl.InSchema {
			node, _ := c.Node(crd.LocationOf(d))
			edits = append(edits, edit.Edit{Path: node, Remove: []string{d.Ext}})
		}
	}
	return edits
}

// Declared is c's document as its author declared it: o and the
// annotations set aside, and every declaration of decls that is not
// written in the schema written there, as the author would have.
func Declared(c *crd.CRD, o *Owned, decls []decl.Declaration) (map[string]interface{}, error) {
	src, err := edit.Apply(c.Document(), o.SetAside())
	if err != nil {
		return nil, err
	}
	model, err := crd.Read(src)
	if err != nil {
		return nil, err
	}
	for _, d := range decls {
		if d.Origin.Kind == decl.InSchema {
			continue
		}
		node, ok := model.NodeAt(crd.LocationOf(d))
		if !ok {
			return nil, fmt.Errorf("%s: no such schema node", crd.LocationOf(d))
		}
		k, _ := decl.KindNamed(d.Ext)
		node[d.Ext] = k.Write(d.Value)
	}
	return src, nil
}

// dropAnnotations removes the mut2cel.io annotations, and the annotations
// mapping when nothing else is in it.
func dropAnnotations(c *crd.CRD) (edit.Edit, bool) {
	var names []string
	if c.Own.HasDeclarations {
		names = append(names, decl.AnnotationDeclarations)
	}
	if c.Own.HasRecord {
		names = append(names, decl.AnnotationGenerated)
	}
	if c.Own.HasKubeVersion {
		names = append(names, decl.AnnotationKubeVersion)
	}
	if len(names) == 0 {
		return edit.Edit{}, false
	}
	if len(c.Annotations) == len(names) {
		return edit.Edit{Path: []interface{}{"metadata"}, Remove: []string{"annotations"}}, true
	}
	return edit.Edit{Path: crd.AnnotationsPath(), Remove: names}, true
}

// annotationEdits writes the declarations of p and the record, each only
// when its content changed, so that a hand-formatted annotation stays as
// it is, and the target of p when the CRD must record it. Without
// declarations the annotations go.
func annotationEdits(c *crd.CRD, p *plan.Plan, rec decl.Record) []edit.Edit {
	decls := decl.Annotation{}
	for _, pv := range p.Versions {
		for _, d := range pv.Declarations {
			decls.Add(d.Version, d.Path.String(), d.Ext, d.Value)
		}
	}
	if len(decls) == 0 {
		if e, ok := dropAnnotations(c); ok {
			return []edit.Edit{e}
		}
		return nil
	}
	own := c.Own
	e := edit.Edit{Path: crd.AnnotationsPath(), Create: true}
	if !own.HasDeclarations || !reflect.DeepEqual(decls, own.Declarations) {
		e.Set = append(e.Set, edit.Setting{Key: decl.AnnotationDeclarations, Value: decls.Render(c.VersionNames())})
	}
	switch {
	case len(rec) == 0 && own.HasRecord:
		e.Remove = []string{decl.AnnotationGenerated}
	case len(rec) > 0 && (!own.HasRecord || !reflect.DeepEqual(rec, own.Record)):
		e.Set = append(e.Set, edit.Setting{Key: decl.AnnotationGenerated, Value: rec.Render(c.VersionNames())})
	}
	// The target, when it is not the default (plan.Plan.RecordKubeVersion).
	switch target := p.KubeVersion.String(); {
	case p.RecordKubeVersion && (!own.HasKubeVersion || own.KubeVersion != target):
		e.Set = append(e.Set, edit.Setting{Key: decl.AnnotationKubeVersion, Value: target})
	case !p.RecordKubeVersion && own.HasKubeVersion:
		e.Remove = append(e.Remove, decl.AnnotationKubeVersion)
	}
	if len(e.Set) == 0 && len(e.Remove) == 0 {
		return nil
	}
	return []edit.Edit{e}
}

// generatedRecord lists the fingerprints of the rules that edits add, by
// version name and node path.
func generatedRecord(c *crd.CRD, edits []edit.Edit) decl.Record {
	rec := decl.Record{}
	for _, e := range edits {
		i, rel, ok := crd.Split(e.Path)
		if len(e.AddRules) == 0 || !ok {
			continue
		}
		for _, r := range e.AddRules {
			rec.Add(c.Versions[i].Name, decl.PathOf(rel).String(), decl.Fingerprint(r.Value()))
		}
	}
	return rec
}
