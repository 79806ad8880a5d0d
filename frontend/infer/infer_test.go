package infer

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
)

// crdOf builds a CRD of the given versions, each with the spec schema
// given in YAML; conversion is the strategy ("" for none).
func crdOf(t *testing.T, conversion string, versions map[string]string) *crd.CRD {
	t.Helper()
	var vs []crd.NewVersion
	for _, name := range slices.Sorted(maps.Keys(versions)) {
		var spec map[string]interface{}
		if err := yaml.Unmarshal([]byte(versions[name]), &spec); err != nil {
			t.Fatal(err)
		}
		vs = append(vs, crd.NewVersion{Name: name, Served: true, Storage: len(vs) == 0, Schema: map[string]interface{}{
			"type": "object", "properties": map[string]interface{}{"spec": spec}}})
	}
	doc := crd.NewDocument(crd.Names{Name: "widgets.example.com", Group: "example.com", Kind: "Widget", Plural: "widgets", Scope: "Namespaced"}, vs...)
	if conversion != "" {
		doc["spec"].(map[string]interface{})["conversion"] = map[string]interface{}{"strategy": conversion}
	}
	c, err := crd.Read(doc)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// proposed lists a result's proposals as "path versions values" or,
// commented out, "# path ...".
func proposed(r *Result) []string {
	var out []string
	for _, p := range r.Proposals {
		var vals []string
		for _, k := range decl.Extensions {
			if v, ok := p.Values[k]; ok {
				vals = append(vals, k+"="+v)
			}
		}
		s := p.Path.String() + " " + strings.Join(p.Versions, ",") + " " + strings.Join(vals, " ")
		if p.Doubt != "" {
			s = "# " + s
		}
		out = append(out, s)
	}
	return out
}

func TestInferCases(t *testing.T) {
	const immutableMarker = `
type: object
x-kubernetes-validations:
- {rule: "!has(oldSelf.class) || has(self.class)", message: "field class is immutable once set"}
properties:
  class:
    type: string
    x-kubernetes-validations:
    - {rule: "self == oldSelf", message: "field is immutable"}
`
	for _, tc := range []struct {
		name       string
		conversion string
		versions   map[string]string
		want       []string
	}{{
		name:     "controller-gen's +k8s:immutable output is Immutable",
		versions: map[string]string{"v1": immutableMarker},
		want:     []string{".spec.class v1 x-kubernetes-mutability=Immutable"},
	}, {
		name: "a bare self == oldSelf is the NoModify it enforces",
		versions: map[string]string{"v1": `
type: object
properties:
  class: {type: string, x-kubernetes-validations: [{rule: "self == oldSelf"}]}`},
		want: []string{".spec.class v1 x-kubernetes-update=[NoModify]"},
	}, {
		name: "a guard for a missing old value is the idiom of set once",
		versions: map[string]string{"v1": `
type: object
properties:
  class: {type: string, nullable: true, x-kubernetes-validations: [{rule: "oldSelf == null || self == oldSelf"}]}`},
		want: []string{".spec.class v1 x-kubernetes-update=[NoUnset, NoModify]"},
	}, {
		name: "a rule that lets the field be cleared decides what \"once set\" leaves open",
		versions: map[string]string{"v1": `
type: object
x-kubernetes-validations:
- {rule: "!has(oldSelf.class) || !has(self.class) || oldSelf.class == self.class", message: "class is immutable once set"}
properties:
  class: {type: string}`},
		want: []string{".spec.class v1 x-kubernetes-update=[NoModify]"},
	}, {
		name: "a description saying more than the rule: the description wins",
		versions: map[string]string{"v1": `
type: object
properties:
  class: {type: string, description: "This field is immutable.", x-kubernetes-validations: [{rule: "self == oldSelf"}]}`},
		want: []string{".spec.class v1 x-kubernetes-mutability=Immutable"},
	}, {
		name: "no conversion webhook: a declaration holds in every served version with the path",
		versions: map[string]string{"v1": immutableMarker, "v1beta1": `
type: object
properties:
  class: {type: string}`},
		want: []string{".spec.class v1,v1beta1 x-kubernetes-mutability=Immutable"},
	}, {
		name: "versions that disagree make the proposal doubtful",
		versions: map[string]string{"v1": immutableMarker, "v1beta1": `
type: object
properties:
  class: {type: string, x-kubernetes-validations: [{rule: "self == oldSelf || oldSelf == 'draft'"}]}`},
		want: []string{"# .spec.class v1,v1beta1 x-kubernetes-mutability=Immutable"},
	}, {
		name:       "with a conversion webhook, proposals stay with their version",
		conversion: "Webhook",
		versions: map[string]string{"v1": immutableMarker, "v1beta1": `
type: object
properties:
  class: {type: string}`},
		want: []string{".spec.class v1 x-kubernetes-mutability=Immutable"},
	}, {
		name: "a template's documentation speaks of the objects made from it",
		versions: map[string]string{"v1": `
type: object
properties:
  template:
    type: object
    properties:
      metadata: {type: object}
      spec:
        type: object
        properties:
          image: {type: string, description: "The image. This field is immutable."}`},
		want: []string{"# .spec.template.spec.image v1 x-kubernetes-mutability=Immutable"},
	}, {
		name: "a union and a key shape",
		versions: map[string]string{"v1": `
type: object
x-kubernetes-validations:
- {rule: "[has(self.a), has(self.b)].filter(x, x).size() == 1", message: "exactly one of a, b"}
properties:
  a: {type: string}
  b: {type: string}
  tags:
    type: array
    x-kubernetes-list-type: set
    items: {type: string}
    x-kubernetes-validations: [{rule: "oldSelf.all(x, x in self)", message: "tags may only be added"}]`},
		want: []string{
			`.spec v1 x-kubernetes-unions=[{"fields-to-discriminateBy": {"a": null, "b": null}, "exactlyOne": true}]`,
			".spec.tags v1 x-kubernetes-update=[NoRemoveItem]",
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			r := Infer(crdOf(t, tc.conversion, tc.versions))
			if got := proposed(r); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("Infer = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestWriteIsDeterministic writes one CRD twice: the same bytes, which
// read back as the sure proposals.
func TestWriteIsDeterministic(t *testing.T) {
	c := crdOf(t, "", map[string]string{"v1": `
type: object
x-kubernetes-validations:
- {rule: "!(has(self.a) && has(self.b))", message: "a and b are mutually exclusive"}
properties:
  a: {type: string, description: "A. This field is immutable."}
  b: {type: string, description: "B cannot be changed while the widget is running."}
  c: {type: string, description: "C is immutable once set."}`})
	var first, second bytes.Buffer
	for _, b := range []*bytes.Buffer{&first, &second} {
		if err := Write(b, []*Result{Infer(c)}, WriteOptions{MaxQuote: 30}); err != nil {
			t.Fatal(err)
		}
	}
	if first.String() != second.String() {
		t.Fatalf("two writes differ:\n%s\n---\n%s", first.String(), second.String())
	}
	sets, err := decl.ParseFile("w.yaml", first.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, first.String())
	}
	var paths []string
	for _, f := range sets[0].Fields {
		paths = append(paths, f.Path.String())
	}
	if got := strings.Join(paths, " "); got != ".spec .spec.a .spec.c" {
		t.Errorf("sure fields %q, want .spec .spec.a .spec.c\n%s", got, first.String())
	}
	for _, line := range strings.Split(first.String(), "\n") {
		if strings.Contains(line, "description \"") && len([]rune(line)) > 200 {
			t.Errorf("an evidence line is longer than its bound: %q", line)
		}
	}
}
