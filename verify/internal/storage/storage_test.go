package storage_test

import (
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/testkit/randomcrd"
	"github.com/mut2cel/mut2cel/verify/internal/hostile"
	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
	"github.com/mut2cel/mut2cel/verify/internal/storage"
	"github.com/mut2cel/mut2cel/verify/pairgen"
)

// The tests hold the compiled pipeline to kube.Store and kube.StoreValue
// on the objects the generator makes and on those objects made hostile,
// at the root and at every value below it.

// defaults is a schema with what the pipeline acts on: defaults at every
// kind of place, nullable fields with and without one, preserved
// unknown fields, embedded resources, additionalProperties of either
// kind.
const defaults = `
type: object
properties:
  spec:
    type: object
    default: {}
    properties:
      a: {type: string, default: "x"}
      b: {type: integer, nullable: true, default: 3}
      c: {type: string, nullable: true}
      d: {type: string}
      list:
        type: array
        items:
          type: object
          default: {k: "v"}
          properties:
            k: {type: string, default: "w"}
            n: {type: integer, nullable: true}
      nulls:
        type: array
        items: {type: string, nullable: true}
      free:
        type: object
        x-kubernetes-preserve-unknown-fields: true
        properties:
          known: {type: object, properties: {z: {type: string, default: "z"}}}
      freeList:
        type: array
        x-kubernetes-preserve-unknown-fields: true
        items: {type: object, properties: {q: {type: string}}}
      embedded:
        type: object
        x-kubernetes-embedded-resource: true
        properties:
          spec: {type: object, properties: {e: {type: string, default: "e"}}}
      byKey:
        type: object
        additionalProperties:
          type: object
          default: {}
          properties:
            m: {type: string, default: "m"}
      anyKey:
        type: object
        additionalProperties: true
  status:
    type: object
    x-kubernetes-preserve-unknown-fields: true
`

func TestDefaults(t *testing.T) {
	s := structural(t, fromYAML(t, defaults))
	for seed := int64(1); seed <= 20; seed++ {
		check(t, "defaults", s, 300, seed)
	}
}

func TestExamples(t *testing.T) {
	files, err := filepath.Glob("../../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, f := range files {
		for _, s := range schemas(t, readYAML(t, f)) {
			check(t, filepath.Base(f), s, 500, 1)
		}
	}
}

func TestRandomSchemas(t *testing.T) {
	for seed := int64(1); seed <= 100; seed++ {
		for _, s := range schemas(t, randomcrd.New(seed, randomcrd.Options{Unions: true})) {
			check(t, "random", s, 40, seed)
		}
	}
}

func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("every version of the corpus")
	}
	for _, c := range corpus.CRDs(t) {
		for _, s := range schemas(t, c.Doc) {
			check(t, c.Name, s, 30, 1)
		}
	}
}

// check holds the compiled pipeline of s to the apiserver's on n objects.
func check(t *testing.T, name string, s *schema.Structural, n int, seed int64) {
	t.Helper()
	p := storage.Compile(s)
	g := pairgen.New(s, seed)
	rnd := rand.New(rand.NewSource(seed))
	for i := 0; i < n; i++ {
		obj, _ := g.Next()
		if rnd.Intn(2) == 0 {
			obj = hostile.Change(rnd, s, obj, 1+rnd.Intn(4)).(map[string]interface{})
		}
		if rnd.Intn(2) == 0 {
			obj["apiVersion"], obj["kind"], obj["metadata"] = "example.com/v1", "Thing", map[string]interface{}{"name": "n", "unknown": "u"}
		}
		before := jsonvalue.Canonical(obj)
		got, want := p.Store(jsonvalue.CopyMap(obj)), kube.Store(s, jsonvalue.CopyMap(obj))
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the compiled pipeline stores\n%s\nas\n%s\nthe apiserver as\n%s", name, before, jsonvalue.Canonical(got), jsonvalue.Canonical(want))
		}
		checkBelow(t, name, p, s, obj)
	}
}

// checkBelow holds StoreValue to kube.StoreValue at every value of v.
func checkBelow(t *testing.T, name string, p *storage.Node, s *schema.Structural, v interface{}) {
	t.Helper()
	if p == nil {
		return
	}
	got, want := p.StoreValue(jsonvalue.Copy(v)), kube.StoreValue(s, jsonvalue.Copy(v))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: the compiled pipeline stores the value\n%s\nas\n%s\nthe apiserver as\n%s", name, jsonvalue.Canonical(v), jsonvalue.Canonical(got), jsonvalue.Canonical(want))
	}
	switch x := v.(type) {
	case map[string]interface{}:
		for k, e := range x {
			if ps, ok := s.Properties[k]; ok {
				checkBelow(t, name, p.Property(k), &ps, e)
			} else if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
				checkBelow(t, name, p.Property(k), s.AdditionalProperties.Structural, e)
			}
		}
	case []interface{}:
		if s.Items != nil {
			for _, e := range x {
				checkBelow(t, name, p.Items(), s.Items, e)
			}
		}
	}
}

func schemas(t *testing.T, doc map[string]interface{}) []*schema.Structural {
	t.Helper()
	c, err := crd.Read(doc)
	if err != nil {
		t.Fatal(err)
	}
	var out []*schema.Structural
	for _, v := range c.Versions {
		if s, err := v.Structural(); err == nil && s != nil {
			out = append(out, s)
		}
	}
	return out
}

func structural(t *testing.T, root map[string]interface{}) *schema.Structural {
	t.Helper()
	doc := map[string]interface{}{"spec": map[string]interface{}{"versions": []interface{}{map[string]interface{}{
		"name": "v1", "schema": map[string]interface{}{"openAPIV3Schema": root},
	}}}}
	s := schemas(t, doc)
	if len(s) != 1 {
		t.Fatal("the schema does not convert")
	}
	return s[0]
}

func readYAML(t *testing.T, file string) map[string]interface{} {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]interface{}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func fromYAML(t *testing.T, text string) map[string]interface{} {
	t.Helper()
	var m map[string]interface{}
	if err := yaml.Unmarshal([]byte(text), &m); err != nil {
		t.Fatal(err)
	}
	return m
}
