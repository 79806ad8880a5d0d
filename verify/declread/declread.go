package declread

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	crdedit "github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/internal/limits"
)

// CRD returns the CRD document doc as declared, the form the
// checker reads: the declarations of its mut2cel.io/declarations
// annotation, and those of sets (declarations files) that name the CRD,
// written inline in the schemas of the versions they declare, next to the
// declarations written there; with allServed, every declaration of a
// served version also written into each other served version that has
// the path and declares nothing else of the kind there (docs/translation.md,
// "Several versions"). The rules the generated-rules record
// (mut2cel.io/generated) lists are set aside, and both annotations with
// them, so that what is left of the rules is the author's own. A document
// that is not an apiextensions.k8s.io/v1 CRD is returned as it is; doc is
// never modified.
//
// Nothing here decides where a declaration may stand (the checker does,
// NewChecker): only declarations that name a version or schema node the
// CRD lacks, that contradict each other, or that go past
// internal/limits, and annotations that do not read, are an error.
// CRD reads with decl's parsers and shares nothing else with the
// translator (doc.go).
func CRD(doc map[string]interface{}, sets []decl.Set, allServed bool) (map[string]interface{}, error) {
	if v, _ := doc["apiVersion"].(string); v != "apiextensions.k8s.io/v1" {
		return doc, nil
	}
	g := newGathering(doc)
	g.readAnnotations()
	for _, v := range g.versions {
		g.schema(v)
	}
	g.annotated()
	g.files(sets)
	if len(g.decls) > limits.Declarations {
		g.fail("%d declarations, more than the %d one CRD may make (docs/limits.md)", len(g.decls), limits.Declarations)
	}
	if allServed {
		g.spread()
	}
	if len(g.problems) > 0 {
		sort.Strings(g.problems)
		return nil, fmt.Errorf("%s", strings.Join(g.problems, "\n"))
	}
	out, err := crdedit.Apply(doc, g.setAside())
	if err != nil {
		return nil, err
	}
	for _, d := range g.decls {
		if d.Origin.Kind == decl.InSchema {
			continue
		}
		k, _ := decl.KindNamed(d.Ext)
		node, err := crdedit.Mapping(out, g.nodes[g.key(d)])
		if err != nil {
			return nil, err
		}
		node[d.Ext] = k.Write(d.Value)
	}
	return out, nil
}

// gathering collects the declarations of one CRD document from every
// source, in the order schema, annotation, files.
type gathering struct {
	doc        map[string]interface{}
	crd        *crd.CRD
	versions   []*crd.Version          // the first entry of each name, in order
	byName     map[string]*crd.Version // the same, by name
	annotation decl.Annotation
	record     decl.Record
	hasDecls   bool
	hasRecord  bool
	decls      []decl.Declaration
	seen       map[string]decl.Declaration // by key
	nodes      map[string][]interface{}    // document path of each declared node, by key
	problems   []string
	// fingerprints holds the rule entries of each node searched, by
	// document path (entriesAt).
	fingerprints map[string][]fingerprintedRule
}

func newGathering(doc map[string]interface{}) *gathering {
	g := &gathering{doc: doc, crd: readCRD(doc), byName: map[string]*crd.Version{},
		seen: map[string]decl.Declaration{}, nodes: map[string][]interface{}{}}
	for _, v := range g.crd.Versions {
		if _, dup := g.byName[v.Name]; dup {
			g.fail("%s: version %q is listed twice", crdedit.Render(v.NamePath()), v.Name)
			continue
		}
		g.byName[v.Name] = v
		g.versions = append(g.versions, v)
	}
	return g
}

func (g *gathering) fail(format string, args ...interface{}) {
	g.problems = append(g.problems, fmt.Sprintf(format, args...))
}

// readAnnotations reads both mut2cel.io annotations.
func (g *gathering) readAnnotations() {
	if text, ok := g.annotationText(decl.AnnotationDeclarations); ok {
		a, err := decl.ParseAnnotation(text)
		if err != nil {
			g.fail("annotation %s: %v", decl.AnnotationDeclarations, err)
		}
		g.annotation, g.hasDecls = a, true
	}
	if text, ok := g.annotationText(decl.AnnotationGenerated); ok {
		r, err := decl.ParseRecord(text)
		if err != nil {
			g.fail("annotation %s: %v", decl.AnnotationGenerated, err)
		}
		g.record, g.hasRecord = r, true
	}
}

func (g *gathering) annotationText(name string) (string, bool) {
	v, ok := g.crd.Annotations[name]
	if !ok {
		return "", false
	}
	s, isString := v.(string)
	if !isString {
		g.fail("annotation %s: annotations are strings, got %v", name, v)
	}
	return s, isString
}

// schema takes the declarations written in the schema of v whose values
// read; those inside junctors name no field and are left where they are
// for the checker to refuse.
func (g *gathering) schema(v *crd.Version) {
	if v.Raw == nil {
		return
	}
	var walk func(raw map[string]interface{}, p decl.Path)
	walk = func(raw map[string]interface{}, p decl.Path) {
		for _, k := range decl.Kinds {
			if value, present := raw[k.Name]; present {
				if s, err := k.Read(value); err == nil {
					g.add(decl.Declaration{CRD: g.crd.Name, Version: v.Name, Path: p, Ext: k.Name, Value: s,
						Origin: decl.Origin{Kind: decl.InSchema}})
				}
			}
		}
		props, _ := raw["properties"].(map[string]interface{})
		for _, name := range slices.Sorted(maps.Keys(props)) {
			if child, ok := props[name].(map[string]interface{}); ok {
				walk(child, p.Child(decl.Step{Name: name}))
			}
		}
		for _, key := range []string{"items", "additionalProperties"} {
			if child, ok := raw[key].(map[string]interface{}); ok {
				walk(child, p.Child(decl.Step{Entries: true}))
			}
		}
	}
	walk(v.Raw, decl.Path{})
}

// annotated takes the declarations of the annotation, versions in
// spec.versions order.
func (g *gathering) annotated() {
	for _, name := range decl.OrderVersions(g.versionNames(), g.annotation) {
		if v := g.byName[name]; v == nil || v.Raw == nil {
			g.fail("annotation %s: version %s: the CRD has no version of this name with a schema", decl.AnnotationDeclarations, name)
			continue
		}
		for _, p := range slices.Sorted(maps.Keys(g.annotation[name])) {
			path, _ := decl.ParsePath(p) // checked by decl.ParseAnnotation
			for _, kind := range slices.Sorted(maps.Keys(g.annotation[name][p])) {
				g.add(decl.Declaration{CRD: g.crd.Name, Version: name, Path: path, Ext: kind,
					Value: g.annotation[name][p][kind], Origin: decl.Origin{Kind: decl.InAnnotation}})
			}
		}
	}
}

// files takes the declarations of the sets that name the CRD, for the
// versions each names or else every served version.
func (g *gathering) files(sets []decl.Set) {
	for _, s := range sets {
		if s.CRD != g.crd.Name {
			continue
		}
		var versions []string
		if len(s.Versions) == 0 {
			for _, v := range g.served() {
				versions = append(versions, v.Name)
			}
		}
		for _, named := range s.Versions {
			if v := g.byName[named.Name]; v == nil || v.Raw == nil {
				g.fail("%s: version %s: CRD %s has no version of this name with a schema", named.Source, named.Name, g.crd.Name)
				continue
			}
			versions = append(versions, named.Name)
		}
		for _, f := range s.Fields {
			for _, v := range versions {
				for _, kind := range slices.Sorted(maps.Keys(f.Values)) {
					g.add(decl.Declaration{CRD: g.crd.Name, Version: v, Path: f.Path, Ext: kind, Value: f.Values[kind],
						Origin: decl.Origin{Kind: decl.InFile, Source: f.Source}})
				}
			}
		}
	}
}

// add takes one declaration when its node exists and nothing declares
// otherwise there.
func (g *gathering) add(d decl.Declaration) {
	node, ok := g.byName[d.Version].Node(d.Path)
	switch {
	case !ok:
		g.fail("%s: no such node in the schema of CRD %s", g.where(d), d.CRD)
		return
	case len(d.Path) > limits.DeclarationDepth:
		g.fail("%s: declared %d levels deep, more than the %d allowed (docs/limits.md)", g.where(d), len(d.Path), limits.DeclarationDepth)
		return
	}
	key := g.key(d)
	if have, ok := g.seen[key]; ok {
		if have.Value != d.Value {
			g.fail("%s: %s, but %s declares %s", g.where(d), d.Value, origin(have), have.Value)
		}
		return
	}
	g.seen[key], g.nodes[key] = d, node
	g.decls = append(g.decls, d)
}

// key identifies what a declaration declares: one kind on one node of
// one version.
func (g *gathering) key(d decl.Declaration) string {
	return strings.Join([]string{d.Version, d.Path.String(), d.Ext}, "\x00")
}

// where names a declaration where it was written.
func (g *gathering) where(d decl.Declaration) string {
	if d.Origin.Kind == decl.InFile {
		return d.Origin.Source.String() + ": " + d.Where()
	}
	return d.Where()
}

func origin(d decl.Declaration) string {
	switch d.Origin.Kind {
	case decl.InAnnotation:
		return "the " + decl.AnnotationDeclarations + " annotation"
	case decl.InFile:
		return d.Origin.Source.String()
	}
	return "the schema"
}

func (g *gathering) versionNames() []string {
	out := make([]string, len(g.versions))
	for i, v := range g.versions {
		out[i] = v.Name
	}
	return out
}

// served lists the served versions with a schema, in spec.versions
// order.
func (g *gathering) served() []*crd.Version {
	var out []*crd.Version
	for _, v := range g.versions {
		if v.Served && v.Raw != nil {
			out = append(out, v)
		}
	}
	return out
}

// spread writes each declaration of a served version into every other
// served version that has its path and does not declare its kind there.
// Where served versions declare one kind on one path with different
// values nothing is copied: no single declaration applies to all of them.
func (g *gathering) spread() {
	served := g.served()
	if len(served) < 2 {
		return
	}
	byPath := map[string]map[string][]decl.Declaration{} // path -> kind -> declarations
	for _, d := range g.decls {
		if v := g.byName[d.Version]; !v.Served {
			continue
		}
		p := d.Path.String()
		if byPath[p] == nil {
			byPath[p] = map[string][]decl.Declaration{}
		}
		byPath[p][d.Ext] = append(byPath[p][d.Ext], d)
	}
	for _, p := range slices.Sorted(maps.Keys(byPath)) {
		for _, k := range decl.Kinds {
			if have := byPath[p][k.Name]; len(have) > 0 {
				g.copyTo(served, have)
			}
		}
	}
}

// copyTo copies a declaration that the served versions of have agree on
// to the served versions that lack it.
func (g *gathering) copyTo(served []*crd.Version, have []decl.Declaration) {
	declaring := map[string]bool{}
	first := have[0]
	for _, d := range have {
		if d.Value != first.Value {
			return
		}
		declaring[d.Version] = true
	}
	from := ""
	for _, v := range served {
		if declaring[v.Name] {
			from = v.Name
			break
		}
	}
	for _, v := range served {
		if declaring[v.Name] {
			continue
		}
		node, ok := v.Node(first.Path)
		if !ok {
			continue
		}
		d := first
		d.Version, d.Origin = v.Name, decl.Origin{Kind: decl.Copied, From: from}
		key := g.key(d)
		g.seen[key], g.nodes[key] = d, node
		g.decls = append(g.decls, d)
	}
}

// Annotated reports whether doc keeps declarations in the
// mut2cel.io/declarations annotation (CRD writes them inline).
func Annotated(doc map[string]interface{}) bool {
	_, ok := readCRD(doc).Annotations[decl.AnnotationDeclarations]
	return ok
}

// Rewritten reports whether doc is a CRD that translate rewrote: it keeps
// its declarations in the annotation and the record of the rules mut2cel
// generated. A CRD whose annotation was written by hand and never
// translated has no record: its rules are not mut2cel's yet.
func Rewritten(doc map[string]interface{}) bool {
	_, rec := readCRD(doc).Annotations[decl.AnnotationGenerated]
	return Annotated(doc) && rec
}

// readCRD reads the model of a CRD document; a missing document has no
// name and no versions.
func readCRD(doc map[string]interface{}) *crd.CRD {
	c, err := crd.Read(doc)
	if err != nil {
		return &crd.CRD{}
	}
	return c
}
