package markers

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"golang.org/x/tools/go/packages"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/mut2cel/mut2cel/decl"
)

// Result is what the markers of some Go packages declare.
type Result struct {
	// Sets are the declarations, one set per CRD and version, in the
	// order of CRD name and version.
	Sets []decl.Set
	// Immutable are the fields marked +k8s:immutable, for which
	// controller-gen writes rules of its own (ControllerGenRules).
	Immutable []Immutable
	// OneOf are controller-gen's ExactlyOneOf and AtMostOneOf markers,
	// read as unions, whose rules ControllerGenRules replaces too.
	OneOf []OneOf
}

// Immutable is one field marked +k8s:immutable, where controller-gen put
// its rules.
type Immutable struct {
	CRD, Version string
	Path         decl.Path
	// Inline is true for an inline (embedded) field: controller-gen put
	// its field rule on the struct the field is inlined into, and no rule
	// on a parent.
	Inline bool
	Source decl.Source
}

// Load reads the markers of the Go packages that patterns name (go list
// patterns such as ./api/...), relative to dir ("" is the working
// directory). Problems of the Go code and of the markers are decl.Errors
// at their Go file and line.
//
// Patterns match packages as go list matches them in the module of dir
// (resolve); a pattern outside any module is an error.
func Load(dir string, patterns ...string) (*Result, error) {
	paths, err := resolve(dir, patterns)
	if err != nil {
		return nil, err
	}
	roots, err := loader.LoadRootsWithConfig(&packages.Config{Dir: dir}, paths...)
	if err != nil {
		return nil, fmt.Errorf("loading %v: %v", patterns, err)
	}
	parser, err := newParser()
	if err != nil {
		return nil, err
	}
	col := parser.Collector
	structs, unionErrs := moduleUnions(col, roots)
	for _, root := range roots {
		parser.NeedPackage(root)
	}
	var errs decl.Errors
	errs = append(errs, unreadMarkers(roots)...)
	at := landed(parser, roots)
	unreadable, broken := packageErrors(roots)
	errs = append(errs, unreadable...)
	if len(broken) > 0 {
		return nil, unique(append(errs, broken...))
	}
	st := sites(parser, col)
	errs = append(errs, markErrors(st)...)
	unionDeclared, oneOfs, e := unionDecls(structs, at)
	errs = append(append(errs, unionErrs...), e...)
	r, err := build(at, st, unionDeclared)
	r.OneOf = oneOfs
	var conflicts decl.Errors
	errors.As(err, &conflicts)
	if errs = append(errs, conflicts...); len(errs) > 0 {
		// The marks read well come back with the errors, so that the
		// run reports what is wrong with them as well (a marker on a
		// kind of field it does not fit) rather than in the next run.
		return r, unique(errs)
	}
	return r, nil
}

// newParser is controller-gen's CRD parser with a collector of the
// markers mut2cel reads.
func newParser() (*crd.Parser, error) {
	reg := &ctmarkers.Registry{}
	if err := register(reg); err != nil {
		return nil, err
	}
	parser := &crd.Parser{
		Collector: &ctmarkers.Collector{Registry: reg},
		Checker:   &loader.TypeChecker{NodeFilters: []loader.NodeFilter{crd.Generator{}.CheckFilter()}},
		// Lenient where controller-gen's options only reject or drop
		// types: the schema paths are the same.
		AllowDangerousTypes:        true,
		GenerateEmbeddedObjectMeta: true,
	}
	crd.AddKnownTypes(parser)
	return parser, nil
}

// landed generates the CRD of every kind of the root packages and gives,
// by sentinel id, the schema nodes each sentinel landed on.
func landed(parser *crd.Parser, roots []*loader.Package) map[int][]found {
	at := map[int][]found{}
	metav1 := crd.FindMetav1(roots)
	if metav1 == nil {
		return at
	}
	for _, gk := range crd.FindKubeKinds(parser, metav1) {
		parser.NeedCRDFor(gk, nil)
		c := parser.CustomResourceDefinitions[gk]
		for _, v := range c.Spec.Versions {
			if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
				walk(v.Schema.OpenAPIV3Schema, nil, func(p decl.Path, id int, node *apiextensionsv1.JSONSchemaProps) {
					at[id] = append(at[id], found{c.Name, v.Name, p, node})
				})
			}
		}
	}
	return at
}

// markErrors are the problems of the marks that could not be read, at
// their lines.
func markErrors(sites map[int]site) decl.Errors {
	var errs decl.Errors
	for _, s := range sites {
		if s.mark.err != nil {
			errs = append(errs, &decl.Error{Source: s.source, Detail: s.mark.err.Error()})
		}
	}
	return errs
}

// found is one place a sentinel was found: the CRD, the version and the
// path of the schema node the marker applies to.
type found struct {
	crd, version string
	path         decl.Path
	node         *apiextensionsv1.JSONSchemaProps
}

// walk calls f for each sentinel below s, with the node's path and
// schema. Nodes are visited in a fixed order: properties by name.
func walk(s *apiextensionsv1.JSONSchemaProps, p decl.Path, f func(decl.Path, int, *apiextensionsv1.JSONSchemaProps)) {
	for _, r := range s.XValidations {
		if r.Rule == sentinelRule {
			var id int
			fmt.Sscan(r.Message, &id)
			f(p, id, s)
		}
	}
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		child := s.Properties[name]
		walk(&child, p.Child(decl.Step{Name: name}), f)
	}
	if s.Items != nil && s.Items.Schema != nil {
		walk(s.Items.Schema, p.Child(decl.Step{Entries: true}), f)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		walk(s.AdditionalProperties.Schema, p.Child(decl.Step{Entries: true}), f)
	}
}

// packageErrors gives the problems controller-tools recorded on the
// packages, as controller-gen prints them: without type errors, which
// partial type checking makes up. marks are markers it could not read;
// broken are packages that do not parse or list, whose schemas are not
// to be trusted.
func packageErrors(roots []*loader.Package) (marks, broken decl.Errors) {
	raw := make([]*packages.Package, len(roots))
	for i, r := range roots {
		raw[i] = r.Package
	}
	// The files of the packages named, then those of all packages, where
	// a file an error names is looked for (sourceIn).
	var named, all []string
	for _, p := range raw {
		named = append(named, packageFiles(p)...)
	}
	packages.Visit(raw, nil, func(p *packages.Package) { all = append(all, packageFiles(p)...) })
	packages.Visit(raw, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			err := &decl.Error{Source: sourceIn(e.Pos, named, all), Detail: e.Msg}
			switch e.Kind {
			case packages.TypeError:
			case packages.UnknownError: // controller-tools' positioned errors: a marker it cannot read
				marks = append(marks, err)
			default:
				broken = append(broken, err)
			}
		}
	})
	return marks, broken
}

func packageFiles(p *packages.Package) []string {
	return slices.Concat(p.GoFiles, p.OtherFiles, p.IgnoredFiles, p.EmbedFiles)
}

// unique sorts errs and drops repeats: controller-tools records a bad
// marker once for each pass that reads the package's markers.
func unique(errs decl.Errors) decl.Errors {
	errs.Sort()
	out := errs[:0]
	for i, e := range errs {
		if i == 0 || e.Error() != errs[i-1].Error() {
			out = append(out, e)
		}
	}
	return out
}
