package markers

import (
	"fmt"
	"go/ast"
	"sort"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/mut2cel/mut2cel/decl"
)

// declared is one declaration being built: one extension on one path of
// one CRD version, from one or more marks.
type declared struct {
	crd, version string
	path         decl.Path
	ext          string
	value        string      // for a kind that adds up (decl.Kind.Adds): every mark's combined
	source       decl.Source // the first mark's
}

// build turns the marks found in the generated schemas into sets. Marks
// of a kind that adds up (decl.Kind.Adds: x-kubernetes-update) on one
// node are combined, as repeated +k8s:update markers are in
// validation-gen; two different values of another kind on one node are
// an error at the later marker, returned with the sets of every other
// mark. unions are the union declarations, one per node (unionDecls).
func build(at map[int][]found, sites map[int]site, unions []*declared) (*Result, error) {
	byKey := map[string]*declared{}
	var errs decl.Errors
	for _, d := range unions {
		if err := merge(byKey, d); err != nil {
			errs = append(errs, err)
		}
	}
	var immutable []Immutable
	for id, places := range at {
		s, ok := sites[id]
		if !ok {
			continue // a mark of a package the parser did not index: none
		}
		for _, f := range places {
			d := &declared{crd: f.crd, version: f.version, path: append(append(decl.Path{}, f.path...), s.mark.below...),
				ext: s.mark.ext, value: s.mark.value, source: s.source}
			if err := merge(byKey, d); err != nil {
				errs = append(errs, err)
			}
			if s.field != nil && s.mark.text == "+"+nameK8sImmutable {
				immutable = append(immutable, Immutable{CRD: f.crd, Version: f.version, Path: f.path, Inline: isInline(s.field), Source: s.source})
			}
		}
	}
	sortImmutable(immutable)
	r := &Result{Sets: sets(byKey), Immutable: immutable}
	if len(errs) > 0 {
		errs.Sort()
		return r, errs
	}
	return r, nil
}

func merge(byKey map[string]*declared, d *declared) *decl.Error {
	key := strings.Join([]string{d.crd, d.version, d.path.String(), d.ext}, "\x00")
	have, ok := byKey[key]
	if !ok {
		byKey[key] = d
		return nil
	}
	if k, _ := decl.KindNamed(d.ext); k.Adds() {
		combined, err := k.Combine(have.value, d.value)
		if err != nil {
			return &decl.Error{Source: d.source, Detail: fmt.Sprintf("version %s: %s: %s: %v", d.version, d.path, d.ext, err)}
		}
		have.value = combined
		if before(d.source, have.source) {
			have.source = d.source
		}
		return nil
	}
	first, later := have, d
	if before(later.source, first.source) {
		first, later = later, first
	}
	if have.value == d.value {
		have.source = first.source
		return nil
	}
	return &decl.Error{Source: later.source, Detail: fmt.Sprintf("version %s: %s: %s: %s here, but %s at %s: keep one",
		d.version, d.path, d.ext, later.value, first.value, first.source)}
}

// sets groups the declarations by CRD and version, each sorted by path.
func sets(byKey map[string]*declared) []decl.Set {
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []decl.Set
	for _, k := range keys {
		d := byKey[k]
		if n := len(out); n == 0 || out[n-1].CRD != d.crd || out[n-1].Versions[0].Name != d.version {
			out = append(out, decl.Set{CRD: d.crd, Versions: []decl.Named{{Name: d.version, Source: d.source}}, Source: d.source})
		}
		s := &out[len(out)-1]
		s.Fields = append(s.Fields, decl.Field{Path: d.path, Values: map[string]string{d.ext: d.value}, Source: d.source})
		if before(d.source, s.Source) {
			s.Source, s.Versions[0].Source = d.source, d.source
		}
	}
	return out
}

func before(a, b decl.Source) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	return a.Line < b.Line
}

// isInline reports whether controller-gen inlines a field: an embedded
// field without a json name, or one tagged inline.
func isInline(f *ast.Field) bool {
	name, opts, _ := strings.Cut(loader.ParseAstTag(f.Tag).Get("json"), ",")
	if name == "" {
		return true
	}
	for _, o := range strings.Split(opts, ",") {
		if o == "inline" {
			return true
		}
	}
	return false
}

func sortImmutable(list []Immutable) {
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.CRD != b.CRD {
			return a.CRD < b.CRD
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.Path.String() < b.Path.String()
	})
}
