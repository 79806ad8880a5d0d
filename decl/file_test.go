package decl

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestParseFile(t *testing.T) {
	sets, err := ParseFile("d.yaml", []byte(`# for two CRDs
apiVersion: mut2cel.io/v1alpha1
kind: Declarations
crd: widgets.example.com
fields:
  .spec.class:
    x-kubernetes-mutability: Immutable
  .spec.tags[*]:
    x-kubernetes-update: [NoModify]
  .spec.labels:
    x-kubernetes-update: [NoRemoveItem, NoAddItem]
    x-kubernetes-key-mutability: AddOnly
---
---
apiVersion: mut2cel.io/v1alpha1
kind: Declarations
crd: gadgets.example.com
versions: [v1, v2]
fields:
  '["a.b"]': {x-kubernetes-update: [NoSet]}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Set{
		{CRD: "widgets.example.com", Source: Source{"d.yaml", 2}, Fields: []Field{
			{Path: Path{{Name: "spec"}, {Name: "class"}}, Values: map[string]string{ExtMutability: Immutable}, Source: Source{"d.yaml", 6}},
			{Path: Path{{Name: "spec"}, {Name: "tags"}, {Entries: true}}, Values: map[string]string{ExtUpdate: "[NoModify]"}, Source: Source{"d.yaml", 8}},
			{Path: Path{{Name: "spec"}, {Name: "labels"}}, Values: map[string]string{ExtUpdate: "[NoAddItem, NoRemoveItem]", ExtKeyMutability: AddOnly}, Source: Source{"d.yaml", 10}},
		}},
		{CRD: "gadgets.example.com", Source: Source{"d.yaml", 15}, Versions: []Named{{"v1", Source{"d.yaml", 18}}, {"v2", Source{"d.yaml", 18}}}, Fields: []Field{
			{Path: Path{{Name: "a.b"}}, Values: map[string]string{ExtUpdate: "[NoSet]"}, Source: Source{"d.yaml", 20}},
		}},
	}
	if !reflect.DeepEqual(sets, want) {
		t.Errorf("ParseFile =\n%+v\nwant\n%+v", sets, want)
	}
}

// TestParseFileErrors checks that every problem is reported, at its line,
// in line order.
func TestParseFileErrors(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"every problem": {`apiVersion: mut2cel.io/v1alpha1
kind: Declarations
crd: widgets.example.com
versions: [v1, v1]
extra: 1
fields:
  spec.class:
    x-kubernetes-mutability: Immutable
  .spec.tags:
    x-kubernetes-update: NoModify
    x-kubernetes-mutability: immutable
    x-kubernetes-mutable: Immutable
  .spec.size: Immutable
`, `d.yaml:4: versions: v1 listed twice
d.yaml:5: unknown key "extra": want apiVersion, kind, crd, versions, kubeVersion and fields
d.yaml:7: path "spec.class" must start with "." (the schema root), as in .spec.field
d.yaml:10: .spec.tags: x-kubernetes-update: must be a list of constraints, as in [NoUnset, NoModify], not "NoModify"
d.yaml:11: .spec.tags: x-kubernetes-mutability: want one of Immutable, AddOnly, RemoveOnly
d.yaml:12: .spec.tags: unknown key "x-kubernetes-mutable" (did you mean x-kubernetes-mutability?): declare x-kubernetes-mutability, x-kubernetes-key-mutability, x-kubernetes-update or x-kubernetes-unions, or give a bound (maxItems, maxLength, maxProperties)
d.yaml:13: .spec.size: want a map of extension -> value, as in {x-kubernetes-update: [NoModify]}`},
		"wrong kind": {"apiVersion: v1\nkind: ConfigMap\n", `d.yaml:1: apiVersion "v1", kind "ConfigMap": want apiVersion mut2cel.io/v1alpha1 and kind Declarations`},
		"no crd, no fields": {"apiVersion: mut2cel.io/v1alpha1\nkind: Declarations\n", `d.yaml:1: crd: required: the CRD's metadata.name, as in widgets.example.com
d.yaml:1: fields: required: a map of schema path -> declarations, as in .spec.class: {x-kubernetes-mutability: Immutable}`},
		"not yaml": {"a: [\n", "d.yaml:1: not YAML: did not find expected node content"},
		// A decoder keeps the last of two keys: the first declaration
		// would vanish without a word.
		"duplicate key": {"apiVersion: mut2cel.io/v1alpha1\nkind: Declarations\ncrd: w.example.com\nfields:\n  .spec.a: {x-kubernetes-mutability: Immutable, x-kubernetes-mutability: AddOnly}\n",
			`d.yaml:5: key "x-kubernetes-mutability" is written twice in one mapping (first at line 5); remove one`},
		"empty": {"# nothing\n", "d.yaml: no declarations: want documents of kind Declarations"},
	} {
		_, err := ParseFile("d.yaml", []byte(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: ParseFile error =\n%v\nwant\n%s", name, err, c.want)
		}
	}
}

// FuzzParseFile checks that no input makes the reader panic, and that
// every error names the file.
func FuzzParseFile(f *testing.F) {
	f.Add("apiVersion: mut2cel.io/v1alpha1\nkind: Declarations\ncrd: a.b\nfields:\n  .a: {x-kubernetes-update: [NoSet]}\n")
	f.Add("a: [\n")
	f.Fuzz(func(t *testing.T, in string) {
		sets, err := ParseFile("f.yaml", []byte(in))
		if err != nil {
			if es, ok := err.(Errors); !ok || len(es) == 0 || es[0].Source.File != "f.yaml" {
				t.Fatalf("error %v does not name the file", err)
			}
			return
		}
		for _, s := range sets {
			if s.CRD == "" || len(s.Fields) == 0 {
				t.Fatalf("accepted a set without crd or fields: %+v", s)
			}
		}
	})
}

// TestParseFileAliases reads a file that says the same with anchors,
// aliases and merge keys as TestParseFile's first document, which the
// annotation accepted and the file refused; and one whose aliases
// would expand it a billion times, refused before it is read.
func TestParseFileAliases(t *testing.T) {
	sets, err := ParseFile("d.yaml", []byte(`apiVersion: mut2cel.io/v1alpha1
kind: Declarations
crd: &crd widgets.example.com
fields:
  .spec.class: &immutable
    x-kubernetes-mutability: Immutable
  .spec.size: *immutable
  .spec.tags[*]: {x-kubernetes-update: &modify [NoModify]}
  .spec.labels:
    <<: {x-kubernetes-update: *modify, x-kubernetes-key-mutability: AddOnly}
    x-kubernetes-update: [NoRemoveItem, NoAddItem]
---
apiVersion: mut2cel.io/v1alpha1
kind: Declarations
crd: *crd
fields: {<<: [{.spec.a: *immutable}], .spec.b: *immutable}
`))
	if err != nil {
		t.Fatal(err)
	}
	imm := map[string]string{ExtMutability: Immutable}
	want := []Set{
		{CRD: "widgets.example.com", Source: Source{"d.yaml", 1}, Fields: []Field{
			{Path: Path{{Name: "spec"}, {Name: "class"}}, Values: imm, Source: Source{"d.yaml", 5}},
			{Path: Path{{Name: "spec"}, {Name: "size"}}, Values: imm, Source: Source{"d.yaml", 7}},
			{Path: Path{{Name: "spec"}, {Name: "tags"}, {Entries: true}}, Values: map[string]string{ExtUpdate: "[NoModify]"}, Source: Source{"d.yaml", 8}},
			{Path: Path{{Name: "spec"}, {Name: "labels"}}, Values: map[string]string{ExtUpdate: "[NoAddItem, NoRemoveItem]", ExtKeyMutability: AddOnly}, Source: Source{"d.yaml", 9}},
		}},
		{CRD: "widgets.example.com", Source: Source{"d.yaml", 13}, Fields: []Field{
			{Path: Path{{Name: "spec"}, {Name: "a"}}, Values: imm, Source: Source{"d.yaml", 16}},
			{Path: Path{{Name: "spec"}, {Name: "b"}}, Values: imm, Source: Source{"d.yaml", 16}},
		}},
	}
	if !reflect.DeepEqual(sets, want) {
		t.Errorf("ParseFile =\n%+v\nwant\n%+v", sets, want)
	}

	laughs := "apiVersion: mut2cel.io/v1alpha1\nkind: Declarations\ncrd: w.example.com\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 1; i < 10; i++ {
		laughs += fmt.Sprintf("a%d: &a%d [*a%[3]d, *a%[3]d, *a%[3]d, *a%[3]d, *a%[3]d, *a%[3]d, *a%[3]d, *a%[3]d, *a%[3]d, *a%[3]d]\n", i, i, i-1)
	}
	laughs += "fields: {.spec.a: {x-kubernetes-update: *a9}}\n"
	_, err = ParseFile("laughs.yaml", []byte(laughs))
	if err == nil || !strings.Contains(err.Error(), "laughs.yaml:1: not YAML: document contains excessive aliasing") {
		t.Errorf("ParseFile(billion laughs) = %v, want an error of excessive aliasing", err)
	}
}

// TestParseFileTargetAndBounds reads the Kubernetes version a document is
// for and the bounds a field gives, alone or beside declarations.
func TestParseFileTargetAndBounds(t *testing.T) {
	in := `apiVersion: mut2cel.io/v1alpha1
kind: Declarations
crd: widgets.example.com
kubeVersion: 1.30
fields:
  .spec.ports:
    x-kubernetes-update: [NoModify]
    maxItems: 16
  .spec.name:
    maxLength: 63
`
	sets, err := ParseFile("d.yaml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	s := sets[0]
	if want := (Named{"1.30", Source{"d.yaml", 4}}); s.KubeVersion != want {
		t.Errorf("KubeVersion = %v, want %v", s.KubeVersion, want)
	}
	if got := s.Fields[0].Bounds; !reflect.DeepEqual(got, map[string]int64{"maxItems": 16}) || s.Fields[0].Values[ExtUpdate] != "[NoModify]" {
		t.Errorf("field %s = %+v, want maxItems 16 beside x-kubernetes-update", s.Fields[0].Path, s.Fields[0])
	}
	if got := s.Fields[1]; !reflect.DeepEqual(got.Bounds, map[string]int64{"maxLength": 63}) || len(got.Values) != 0 {
		t.Errorf("field %s = %+v, want maxLength 63 alone", got.Path, got)
	}
	bad := `apiVersion: mut2cel.io/v1alpha1
kind: Declarations
crd: widgets.example.com
kubeVersion: latest
fields:
  .spec.ports:
    maxItems: -1
  .spec.name:
    maxLength: "63"
`
	want := `d.yaml:4: kubeVersion: want a Kubernetes version MAJOR.MINOR, as in "1.33"
d.yaml:7: .spec.ports: maxItems: want a positive integer
d.yaml:9: .spec.name: maxLength: want a positive integer`
	if _, err := ParseFile("d.yaml", []byte(bad)); err == nil || err.Error() != want {
		t.Errorf("ParseFile(bad) = %v, want\n%s", err, want)
	}
}

func TestParseKubeVersionRecord(t *testing.T) {
	if v, err := ParseKubeVersionRecord("1.33"); err != nil || v != "1.33" {
		t.Errorf("ParseKubeVersionRecord(1.33) = %q, %v", v, err)
	}
	for _, bad := range []string{"", "v1.33", "1", "1.33.0", "latest"} {
		if _, err := ParseKubeVersionRecord(bad); err == nil {
			t.Errorf("ParseKubeVersionRecord(%q) = nil error", bad)
		}
	}
}
