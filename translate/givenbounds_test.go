package translate_test

import (
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/translate"
)

// indexList declares the items of a list Immutable: below Kubernetes
// 1.33 the rule enumerates its indices up to maxItems.
const indexList = `{type: object, properties: {foo: {type: array, %sitems: {type: string, maxLength: 4, x-kubernetes-mutability: Immutable}}}}`

// boundSet is a declarations file document that gives the node at path
// one bound.
func boundSet(path, keyword string, value int64) decl.Set {
	p, err := decl.ParsePath(path)
	if err != nil {
		panic(err)
	}
	return decl.Set{CRD: "widgets.example.com", Fields: []decl.Field{{Path: p, Bounds: map[string]int64{keyword: value}, Source: decl.Source{File: "d.yaml", Line: 5}}}}
}

// TestGivenMaxItems: at 1.31 the index comparison takes a maxItems given
// by a declarations file or a per-node floor, adds it to the list as a
// reported bound, and the rule gives the verdicts of the reference
// checker; a list's own smaller maxItems is kept.
func TestGivenMaxItems(t *testing.T) {
	v131 := translate.KubeVersion{Major: 1, Minor: 31}
	byFile := func(n int64) []decl.Set { return []decl.Set{boundSet(".foo", "maxItems", n)} }
	byFloor := func(n int64) map[string]map[string]int64 { return map[string]map[string]int64{".foo": {"maxItems": n}} }
	for _, c := range []struct {
		name      string
		own       string // the list's own maxItems, as "maxItems: N, "
		opts      translate.Options
		wantBound int64 // the maxItems added; 0 for none
		wantMax   int64 // the list's maxItems in the output
	}{
		{"by file", "", translate.Options{Declarations: byFile(4)}, 4, 4},
		{"by node floor", "", translate.Options{NodeFloors: byFloor(4)}, 4, 4},
		{"node floor over file", "", translate.Options{NodeFloors: byFloor(3), Declarations: byFile(5)}, 3, 3},
		{"own smaller kept", "maxItems: 2, ", translate.Options{Declarations: byFile(8)}, 0, 2},
		{"own too large narrowed", "maxItems: 1000, ", translate.Options{Declarations: byFile(4)}, 4, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			schemaYAML := strings.Replace(indexList, "%s", c.own, 1)
			c.opts.KubeVersion = v131
			res, err := translate.Translate(crdWith(t, schemaYAML), c.opts)
			if err != nil {
				t.Fatalf("Translate: %v", err)
			}
			var added []string
			for _, b := range res.Bounds {
				added = append(added, b.Node+" "+b.Keyword)
				if b.Node == ".foo" && b.Keyword == "maxItems" && b.Value != c.wantBound {
					t.Errorf("bound %s = %d, want %d", b, b.Value, c.wantBound)
				}
			}
			if want := c.wantBound > 0; want != (len(added) == 1 && added[0] == ".foo maxItems") {
				t.Errorf("bounds added %v, want .foo maxItems: %v", added, want)
			}
			crd := typedCRD(t, res.Translated)
			if errs, err := kube.ValidateCRD(crd); err != nil || len(errs) > 0 {
				t.Fatalf("translated CRD fails validation: %v %v", err, errs)
			}
			if got := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["foo"].MaxItems; got == nil || *got != c.wantMax {
				t.Fatalf("maxItems of .foo = %v, want %d", got, c.wantMax)
			}
			s, err := kube.Structural(crd.Spec.Versions[0].Schema.OpenAPIV3Schema)
			if err != nil {
				t.Fatal(err)
			}
			checker := checkerFor(t, schemaYAML)
			checkVerdict(t, checker, s, `{foo: [a, b]}`, `{foo: [a, b]}`, false)
			checkVerdict(t, checker, s, `{foo: [a, b]}`, `{foo: [a, c]}`, true)
			checkVerdict(t, checker, s, `{foo: [b]}`, `{foo: [a]}`, true)
		})
	}
}

// TestGivenBoundProblems: a bound the compiler cannot use is an error at
// its line, a path the schema lacks with the nearest one.
func TestGivenBoundProblems(t *testing.T) {
	v131 := translate.KubeVersion{Major: 1, Minor: 31}
	for _, c := range []struct {
		name string
		sets []decl.Set
		want string
	}{
		{"no such path", []decl.Set{boundSet(".fo", "maxItems", 4)}, "d.yaml:5: version v1, .fo: Not found: no such node in the schema of CRD widgets.example.com; did you mean .foo? (check the path of the bound)"},
		{"wrong type", []decl.Set{boundSet(".foo", "maxLength", 4)}, `d.yaml:5: version v1, .foo: Invalid value: maxLength: 4: bounds a schema node of type string, and this one is of type "array"`},
		{"too large to enumerate", []decl.Set{boundSet(".foo", "maxItems", 300)}, "for older targets mut2cel enumerates the indices up to the list's maxItems (at most 256)"},
	} {
		_, err := translate.Translate(crdWith(t, strings.Replace(indexList, "%s", "", 1)), translate.Options{KubeVersion: v131, Declarations: c.sets})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Translate = %v, want an error with %q", c.name, err, c.want)
		}
	}
}
