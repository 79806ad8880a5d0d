package validity_test

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/testkit/randomcrd"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify/internal/hostile"
	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
	"github.com/mut2cel/mut2cel/verify/internal/validity"
	"github.com/mut2cel/mut2cel/verify/pairgen"
)

// The tests hold every decision of the validator to the apiserver's
// (kube.ObjectValidator) on objects the generator makes and on those
// objects made hostile (verify/internal/hostile). Both whole (Object) and
// where a new object differs from a valid old one (Changed).

// keywords is a schema with every keyword the apiserver validates, and
// rules on create.
const keywords = `
type: object
properties:
  apiVersion: {type: string}
  kind: {type: string}
  metadata: {type: object}
  spec:
    type: object
    required: [name]
    minProperties: 1
    maxProperties: 20
    x-kubernetes-validations:
    - rule: "!has(self.low) || !has(self.high) || self.low <= self.high"
    - rule: "self.name != 'forbidden'"
    - rule: "self.name != 'oldSelf'"
    - rule: "self.name == oldSelf.name"
    - rule: "!oldSelf.hasValue() || self.mode == oldSelf.value().mode"
      optionalOldSelf: true
    properties:
      name: {type: string, minLength: 2, maxLength: 5, pattern: '^[a-zé]+$'}
      mode: {type: string, enum: [A, B, "1"]}
      count: {type: integer, format: int32, minimum: -3, maximum: 7, exclusiveMaximum: true}
      big: {type: integer, minimum: 1, multipleOf: 2}
      ratio: {type: number, format: float, maximum: 2.5, exclusiveMinimum: true, minimum: 0}
      step: {type: number, multipleOf: 0.25}
      low: {type: integer}
      high: {type: integer}
      when: {type: string, format: date-time}
      uid: {type: string, format: uuid}
      host: {type: string, format: hostname}
      port: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}
      flag: {type: boolean, enum: [true]}
      nums: {type: array, items: {type: integer, enum: [1, 2, 3]}, maxItems: 3}
      maybe: {type: string, nullable: true, maxLength: 3}
      tags:
        type: array
        x-kubernetes-list-type: set
        minItems: 1
        items:
          type: string
          maxLength: 4
          x-kubernetes-validations:
          - rule: "self == oldSelf"
          - rule: "oldSelf.size() > 0"
        x-kubernetes-validations:
        - rule: "self.all(t, t != 'bad')"
      ports:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [name, protocol]
        items:
          type: object
          required: [name]
          x-kubernetes-validations:
          - rule: "!has(self.port) || self.port > 0"
          - rule: "self == oldSelf"
          properties:
            name: {type: string}
            protocol: {type: string, enum: [TCP, UDP]}
            port: {type: integer}
      keyed:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [id]
        items:
          type: object
          required: [id]
          properties:
            id: {type: integer}
            sub:
              type: array
              x-kubernetes-list-type: set
              items: {type: number}
      labels:
        type: object
        maxProperties: 3
        additionalProperties: {type: string, minLength: 1}
        x-kubernetes-validations:
        - rule: "self.all(k, k != 'x')"
      either:
        type: object
        anyOf:
        - required: [a]
        - required: [b]
        not: {required: [c, a]}
        properties:
          a: {type: string}
          b: {type: string}
          c: {type: string}
      all:
        type: object
        allOf:
        - properties: {v: {maxLength: 2}}
        - properties: {v: {minLength: 1}}
        properties:
          v: {type: string}
      free:
        type: object
        x-kubernetes-preserve-unknown-fields: true
      embedded:
        type: object
        x-kubernetes-embedded-resource: true
        x-kubernetes-preserve-unknown-fields: true
        x-kubernetes-validations:
        - rule: "self.kind != 'Bad'"
      nested:
        type: array
        items:
          type: array
          x-kubernetes-list-type: set
          items: {type: integer, maximum: 5}
`

// odd is a schema with bounds the apiserver refuses every value against
// (a bound out of the range of the type's format) or reads in its own
// way (an integer bound that is no integer), and oneOf.
const odd = `
type: object
properties:
  apiVersion: {type: string}
  kind: {type: string}
  metadata: {type: object}
  spec:
    type: object
    properties:
      half: {type: integer, minimum: 0.5}
      wide: {type: integer, format: int32, maximum: 1e10}
      tiny: {type: number, format: float, minimum: -1e40}
      step: {type: integer, multipleOf: 0.5}
      frac: {type: number, multipleOf: 0.1, maximum: 3}
      one:
        type: object
        oneOf:
        - required: [a]
        - required: [b]
        properties:
          a: {type: string}
          b: {type: string}
      mixed: {type: number, enum: [1, 2.5]}
      ints: {type: integer, format: int64, enum: [1, 3]}
`

// TestKeywords checks the schemas of every keyword and the odd ones with
// four seeds each, one under -short.
func TestKeywords(t *testing.T) {
	seeds := int64(4)
	if testing.Short() {
		seeds = 1
	}
	v := schemaFromYAML(t, keywords)
	for seed := int64(1); seed <= seeds; seed++ {
		checkSchema(t, fmt.Sprint("keywords ", seed), v, 2000, seed)
	}
	v = schemaFromYAML(t, odd)
	for seed := int64(1); seed <= seeds; seed++ {
		checkSchema(t, fmt.Sprint("odd ", seed), v, 1000, seed)
	}
}

func TestExamples(t *testing.T) {
	files, err := filepath.Glob("../../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]interface{}
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		res, err := translate.Translate(doc, translate.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range versions(t, res.Translated) {
			checkSchema(t, filepath.Base(f)+" "+v.name, v, 1000, 2)
		}
	}
}

func TestRandomSchemas(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	for seed := int64(1); seed <= int64(n); seed++ {
		doc := randomcrd.New(seed, randomcrd.Options{Unions: true})
		if res, err := translate.Translate(doc, translate.Options{}); err == nil {
			doc = res.Translated
		}
		for _, v := range versions(t, doc) {
			checkSchema(t, fmt.Sprintf("random %d %s", seed, v.name), v, 60, seed)
		}
	}
}

func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("every version of the corpus")
	}
	for _, c := range corpus.CRDs(t) {
		for _, v := range versions(t, c.Doc) {
			checkSchema(t, c.Name+" "+v.name, v, 60, 3)
		}
	}
}

// version is one version's schema, as verify validates against it.
type version struct {
	name    string
	s       *schema.Structural
	objects *kube.ObjectValidator
}

func versions(t *testing.T, doc map[string]interface{}) []version {
	t.Helper()
	c, err := crd.Read(doc)
	if err != nil {
		t.Fatal(err)
	}
	var out []version
	for _, v := range c.Versions {
		props, err := v.Schema()
		if err != nil || props == nil {
			continue
		}
		s, err := v.Structural()
		if err != nil {
			continue
		}
		objects, err := kube.NewObjectValidator(props)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, version{v.Name, s, objects})
	}
	return out
}

func schemaFromYAML(t *testing.T, text string) version {
	t.Helper()
	doc := map[string]interface{}{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]interface{}{"name": "things.example.com"},
		"spec": map[string]interface{}{"versions": []interface{}{map[string]interface{}{
			"name": "v1", "served": true, "storage": true, "schema": map[string]interface{}{"openAPIV3Schema": fromYAML(t, text)},
		}}},
	}
	vs := versions(t, doc)
	if len(vs) != 1 {
		t.Fatal("the schema does not convert")
	}
	return vs[0]
}

func fromYAML(t *testing.T, text string) map[string]interface{} {
	t.Helper()
	var m map[string]interface{}
	if err := yaml.Unmarshal([]byte(text), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// checkSchema holds the validator of v to the apiserver's on n objects
// and as many updates.
func checkSchema(t *testing.T, name string, v version, n int, seed int64) {
	t.Helper()
	fast := validity.New(v.objects.Parts())
	g := pairgen.New(v.s, seed)
	rnd := rand.New(rand.NewSource(seed))
	var objects, refused, updates, updatesRefused int
	for i := 0; i < n; i++ {
		old, new := g.Next()
		if rnd.Intn(3) == 0 {
			old = hostile.Change(rnd, v.s, old, 1+rnd.Intn(2)).(map[string]interface{})
		}
		if rnd.Intn(2) == 0 {
			new = hostile.Change(rnd, v.s, jsonvalue.CopyMap(old), 1+rnd.Intn(3)).(map[string]interface{})
		}
		if rnd.Intn(2) == 0 {
			old, new = kube.Store(v.s, old), kube.Store(v.s, new)
		}
		for _, o := range []map[string]interface{}{old, new} {
			o["apiVersion"], o["kind"], o["metadata"] = "example.com/v1", "Thing", map[string]interface{}{"name": "n", "namespace": "default"}
		}
		errs, cost := fast.Object(old)
		objects++
		want := v.objects.Validate(old)
		if messages(errs) != messages(want) {
			t.Fatalf("%s: Object finds %q, the apiserver %q, on\n%s", name, messages(errs), messages(want), jsonvalue.Canonical(old))
		}
		if len(want) > 0 {
			refused++
			continue
		}
		errs, ok := fast.Changed(old, cost, new)
		updates++
		want = v.objects.Validate(new)
		if ok && messages(errs) != messages(want) || !ok && len(want) == 0 {
			t.Fatalf("%s: Changed finds %q (decided %v), the apiserver %q, on\nold: %s\nnew: %s", name, messages(errs), ok, messages(want), jsonvalue.Canonical(old), jsonvalue.Canonical(new))
		}
		if len(want) > 0 {
			updatesRefused++
		}
	}
	t.Logf("%s: %d objects, %d refused; %d updates of valid ones, %d refused", name, objects, refused, updates, updatesRefused)
}

// messages are the messages of errs, sorted, one a line.
func messages(errs field.ErrorList) string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Error()
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}
