package declread_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify/declread"
)

// The checker's side reads declarations on its own (CRD), and shares
// with the translator only decl's parsers and the rule fingerprint
// (doc.go). These tests hold the two readers to the same result on every
// CRD the repository keeps, so that a difference between them is a test
// failure and not a disagreement verify reports about rules that are
// right.

// repositoryCRDs are the CRD documents of examples/ and testdata/, by
// file and position.
func repositoryCRDs(t *testing.T) map[string]map[string]interface{} {
	t.Helper()
	var files []string
	for _, pattern := range []string{"../../examples/*.yaml", "../../examples/translated/*.yaml", "../../testdata/golden/*/*.yaml",
		"../../testdata/broken/*/*.yaml", "../../testdata/schemas/*.yaml"} {
		found, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, found...)
	}
	out := map[string]map[string]interface{}{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, text := range strings.Split(string(data), "\n---\n") {
			var doc map[string]interface{}
			if err := yaml.Unmarshal([]byte(text), &doc); err != nil || doc["kind"] != "CustomResourceDefinition" {
				continue
			}
			out[fmt.Sprintf("%s, document %d", f, i+1)] = doc
		}
	}
	if len(out) < 10 {
		t.Fatalf("found %d CRDs in examples/ and testdata/, want more", len(out))
	}
	return out
}

// declarationSets reads every declarations file of the repository.
func declarationSets(t *testing.T) []decl.Set {
	t.Helper()
	files, _ := filepath.Glob("../../testdata/audit/*.yaml")
	files = append(files, "../../examples/declarations/documented.yaml")
	var sets []decl.Set
	for _, f := range files {
		if filepath.Base(f) == "audit.yaml" {
			continue // the audit's run settings, not declarations
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := decl.ParseFile(f, data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		sets = append(sets, s...)
	}
	return sets
}

// sameDeclared checks that declared.CRD and translate.DeclaredWith
// agree on doc: the same document, or both an error.
func sameDeclared(t *testing.T, name string, doc map[string]interface{}, sets []decl.Set, all bool) {
	t.Helper()
	want, wantErr := translate.DeclaredWith(doc, translate.Options{Declarations: sets, AllServedVersions: all})
	got, err := declread.CRD(doc, sets, all)
	switch {
	case (err != nil) != (wantErr != nil):
		t.Errorf("%s, all versions %v: CRD error %v, translate.DeclaredWith error %v", name, all, err, wantErr)
	case err == nil && !reflect.DeepEqual(got, want):
		gotText, _ := yaml.Marshal(got)
		wantText, _ := yaml.Marshal(want)
		t.Errorf("%s, all versions %v: CRD =\n%s\nwant, as translate.DeclaredWith,\n%s", name, all, gotText, wantText)
	}
}

// TestSharedDeclaredRepository: every CRD of examples/ and testdata/, as
// it is and as translated (which records generated rules and keeps the
// declarations in the annotation), with and without the declarations
// files and --all-versions.
func TestSharedDeclaredRepository(t *testing.T) {
	sets := declarationSets(t)
	for name, doc := range repositoryCRDs(t) {
		for _, all := range []bool{false, true} {
			for _, s := range [][]decl.Set{nil, sets} {
				sameDeclared(t, name, doc, s, all)
				res, err := translate.Translate(doc, translate.Options{Declarations: s, AllServedVersions: all})
				if err == nil {
					sameDeclared(t, name+" translated", res.Translated, s, all)
					sameDeclared(t, name+" translated, read alone", res.Translated, nil, false)
				}
			}
		}
	}
}

// TestSharedDeclaredCorpus: the cases of testdata/real on the corpus,
// translated, and every corpus CRD with the declarations files (under
// -short a sample of 20).
func TestSharedDeclaredCorpus(t *testing.T) {
	sets := declarationSets(t)
	for _, c := range corpus.Cases(t) {
		doc := c.Declared(t)
		sameDeclared(t, c.Name, doc, nil, c.AllVersions)
		res, err := translate.Translate(doc, translate.Options{AllServedVersions: c.AllVersions})
		if err == nil {
			sameDeclared(t, c.Name+" translated", res.Translated, nil, false)
		}
	}
	for _, c := range corpus.Sample(corpus.CRDs(t), 20) {
		for _, all := range []bool{false, true} {
			sameDeclared(t, c.File, c.Doc, sets, all)
		}
	}
}

// TestSharedDeclaredProblems: declarations that name what the CRD lacks,
// or contradict each other, are errors on both sides.
func TestSharedDeclaredProblems(t *testing.T) {
	doc := testcrd.WithSchema(t, `
type: object
properties:
  spec:
    type: object
    properties:
      a: {type: string, x-kubernetes-mutability: Immutable}
      b: {type: string}
`)
	file := func(path, value string) []decl.Set {
		return []decl.Set{{CRD: "widgets.example.com", Fields: []decl.Field{{Path: mustPath(t, path),
			Values: map[string]string{decl.ExtMutability: value}}}}}
	}
	for _, tc := range []struct {
		name string
		sets []decl.Set
		fail bool
	}{
		{"a node written in", file(".spec.b", "AddOnly"), false},
		{"no such node", file(".spec.c", "Immutable"), true},
		{"contradicts the schema", file(".spec.a", "AddOnly"), true},
		{"agrees with the schema", file(".spec.a", "Immutable"), false},
	} {
		_, err := declread.CRD(doc, tc.sets, false)
		if (err != nil) != tc.fail {
			t.Errorf("%s: CRD error %v, want error %v", tc.name, err, tc.fail)
		}
		sameDeclared(t, tc.name, doc, tc.sets, false)
	}
}

func mustPath(t *testing.T, s string) decl.Path {
	t.Helper()
	p, err := decl.ParsePath(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSharedDeclaredAllVersions: with every served version declared, a
// declaration is copied to the served versions that have its path, not
// to an unserved one nor where the versions disagree.
func TestSharedDeclaredAllVersions(t *testing.T) {
	doc := testcrd.WithSchema(t, `
type: object
properties:
  spec:
    type: object
    properties:
      a: {type: string, x-kubernetes-mutability: Immutable}
      b: {type: string, x-kubernetes-update: [NoModify]}
`)
	spec := doc["spec"].(map[string]interface{})
	for _, v := range []struct {
		name   string
		served bool
		schema string
	}{
		{"v2", true, `{type: object, properties: {spec: {type: object, properties: {a: {type: string}, b: {type: string, x-kubernetes-update: [NoSet]}}}}}`},
		{"v3", false, `{type: object, properties: {spec: {type: object, properties: {a: {type: string}}}}}`},
		{"v4", true, `{type: object, properties: {spec: {type: object, properties: {b: {type: string}}}}}`},
	} {
		var s map[string]interface{}
		if err := yaml.Unmarshal([]byte(v.schema), &s); err != nil {
			t.Fatal(err)
		}
		spec["versions"] = append(spec["versions"].([]interface{}), map[string]interface{}{
			"name": v.name, "served": v.served, "storage": false,
			"schema": map[string]interface{}{"openAPIV3Schema": s},
		})
	}
	got, err := declread.CRD(doc, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	property := func(version int, field string) interface{} {
		v := got["spec"].(map[string]interface{})["versions"].([]interface{})[version].(map[string]interface{})
		props := v["schema"].(map[string]interface{})["openAPIV3Schema"].(map[string]interface{})["properties"].(map[string]interface{})["spec"].(map[string]interface{})["properties"].(map[string]interface{})
		node, _ := props[field].(map[string]interface{})
		return node
	}
	if node := property(1, "a").(map[string]interface{}); node[decl.ExtMutability] != "Immutable" {
		t.Errorf("v2 .spec.a = %v, want Immutable copied from v1", node)
	}
	if node := property(2, "a").(map[string]interface{}); node[decl.ExtMutability] != nil {
		t.Errorf("v3 .spec.a = %v, want nothing copied to an unserved version", node)
	}
	if node := property(3, "b").(map[string]interface{}); node[decl.ExtUpdate] != nil {
		t.Errorf("v4 .spec.b = %v, want nothing copied where v1 and v2 disagree", node)
	}
	sameDeclared(t, "three served versions", doc, nil, true)
}
