package markers

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/mut2cel/mut2cel/decl"
)

// nameUnionSite is the name the sentinel of a union struct is kept
// under in the collector; no comment spells it.
const nameUnionSite = "mut2cel:union-site"

// OneOf is one of controller-gen's +kubebuilder:validation:ExactlyOneOf
// or AtMostOneOf markers, read as a union, where controller-gen put its
// rule (ControllerGenRules).
type OneOf struct {
	CRD, Version string
	// Path is the object node the rule is on.
	Path decl.Path
	// Fields are the marker's, in its order: the rule names them so.
	Fields  []string
	Exactly bool
	Source  decl.Source
}

// moduleUnions reads the union markers of the root packages and of the
// packages they import from the same modules, outside vendor (not
// Kubernetes' own types, whose unions are not this API's to declare), and
// leaves on each
// struct with union markers a sentinel the parser copies to every schema
// node the struct lands on. It runs before the parser indexes the
// packages, which is when the collector's markers of a type are taken.
func moduleUnions(col *ctmarkers.Collector, roots []*loader.Package) ([]*unionStruct, decl.Errors) {
	var pkgs []*loader.Package
	seen := map[*loader.Package]bool{}
	var visit func(p *loader.Package, module string)
	visit = func(p *loader.Package, module string) {
		if seen[p] || module == "" || len(p.GoFiles) == 0 || !strings.HasPrefix(p.GoFiles[0], module) ||
			strings.Contains(p.GoFiles[0][len(module):], "vendor"+string(filepath.Separator)) {
			return
		}
		seen[p] = true
		pkgs = append(pkgs, p)
		for _, imp := range p.Imports() {
			visit(imp, module)
		}
	}
	for _, r := range roots {
		if len(r.GoFiles) > 0 {
			visit(r, moduleDir(filepath.Dir(r.GoFiles[0])))
		}
	}
	structs, errs := readUnionTags(pkgs)
	for _, s := range structs {
		byNode, err := col.MarkersInPackage(s.pkg)
		if err != nil {
			continue // reported with the package's errors
		}
		if byNode[s.spec] == nil {
			byNode[s.spec] = ctmarkers.MarkerValues{}
		}
		byNode[s.spec][nameUnionSite] = append(byNode[s.spec][nameUnionSite], mark{id: s.id, ext: decl.ExtUnions})
	}
	return structs, errs
}

// moduleDir is the directory of the go.mod above dir, with a trailing
// separator; "" when there is none.
func moduleDir(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir + string(filepath.Separator)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// unionDecls gives the union declarations of the structs at the schema
// nodes they landed on (at, by sentinel id): on each node the unions of
// every struct there (a struct and the structs inlined into it), and the
// ExactlyOneOf and AtMostOneOf rules controller-gen wrote there.
func unionDecls(structs []*unionStruct, at map[int][]found) ([]*declared, []OneOf, decl.Errors) {
	var errs decl.Errors
	nodes := nodeUnions{decls: map[string]*declared{}, unions: map[string][]decl.Union{}}
	var oneOfs []OneOf
	for _, s := range structs {
		built, e := s.unions()
		errs = append(errs, e...)
		bad := len(e) > 0 // the unions read well are checked still, for their errors
		if len(built) == 0 {
			continue
		}
		for _, f := range at[s.id] {
			us, e := checkOn(built, f.node)
			if errs = append(errs, e...); bad || len(e) > 0 {
				continue
			}
			nodes.add(f, built, us)
			oneOfs = append(oneOfs, oneOfsAt(f, built)...)
		}
	}
	out, e := nodes.declarations()
	sortOneOfs(oneOfs)
	return out, oneOfs, append(errs, e...)
}

// nodeUnions gathers the unions of every struct on each schema node, by
// node (CRD, version and path), with the declaration that carries them.
type nodeUnions struct {
	decls  map[string]*declared
	unions map[string][]decl.Union
}

// add records on node f the unions us of a struct, built from its
// markers: the node's declaration takes the first source of any struct
// there.
func (n nodeUnions) add(f found, built []*unionBuilt, us []decl.Union) {
	key := strings.Join([]string{f.crd, f.version, f.path.String()}, "\x00")
	src := firstSource(built)
	if d, ok := n.decls[key]; !ok || before(src, d.source) {
		n.decls[key] = &declared{crd: f.crd, version: f.version, path: f.path, ext: decl.ExtUnions, source: src}
	}
	n.unions[key] = append(n.unions[key], us...)
}

// declarations checks the unions of each node together (a field may be
// in one union of its node only) and gives the declarations of those
// that pass.
func (n nodeUnions) declarations() ([]*declared, decl.Errors) {
	var out []*declared
	var errs decl.Errors
	for key, d := range n.decls {
		us := n.unions[key]
		sortUnions(us)
		if err := decl.CheckUnions(us); err != nil {
			errs = append(errs, &decl.Error{Source: d.source, Detail: "version " + d.version + ": " + d.path.String() + ": " + err.Error()})
			continue
		}
		d.value = decl.UnionsText(us)
		out = append(out, d)
	}
	return out, errs
}

// oneOfsAt are the ExactlyOneOf and AtMostOneOf markers among a struct's
// unions, on node f.
func oneOfsAt(f found, built []*unionBuilt) []OneOf {
	var out []OneOf
	for _, b := range built {
		if b.oneOf != nil {
			out = append(out, OneOf{CRD: f.crd, Version: f.version, Path: f.path, Fields: b.oneOf, Exactly: b.u.ExactlyOne, Source: b.from})
		}
	}
	return out
}

// sortOneOfs orders the one-of markers by CRD, version, path and source:
// the result does not depend on the order the structs were read in.
func sortOneOfs(oneOfs []OneOf) {
	sort.Slice(oneOfs, func(i, j int) bool {
		a, b := oneOfs[i], oneOfs[j]
		if a.CRD != b.CRD || a.Version != b.Version {
			return a.CRD+"\x00"+a.Version < b.CRD+"\x00"+b.Version
		}
		if a.Path.String() != b.Path.String() {
			return a.Path.String() < b.Path.String()
		}
		return before(a.Source, b.Source)
	})
}

func firstSource(built []*unionBuilt) decl.Source {
	first := built[0].from
	for _, b := range built[1:] {
		if before(b.from, first) {
			first = b.from
		}
	}
	return first
}
