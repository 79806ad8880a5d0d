package reference

import (
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
)

// Expected wording of the schema errors, as the apiserver would print them.
const (
	unsupported   = `Unsupported value: %s: supported values: "Immutable", "AddOnly", "RemoveOnly"`
	forbiddenRoot = "Forbidden: must not be set on the schema root: " +
		"the apiserver owns apiVersion, kind and metadata; declare the fields below the root instead"
	forbiddenMetadata = "Forbidden: must not be set in metadata: the apiserver owns object metadata"
	forbiddenJunctor  = "Forbidden: must not be set inside allOf, anyOf, oneOf or not: " +
		"those branches only validate values and do not describe fields; " +
		"move it to the field's schema under properties, items or additionalProperties"
	forbiddenKeys = "Forbidden: only allowed on type: array or on type: object with an additionalProperties schema; " +
		"the properties of an object are not a key set: put x-kubernetes-mutability on each property instead"
	narrowingItems = `Invalid value: "%[1]s": only Immutable is allowed on a list or map: ` +
		`use x-kubernetes-key-mutability: %[1]s for its keys, or put x-kubernetes-mutability: %[1]s on its items`
	narrowingValues = `Invalid value: "%[1]s": only Immutable is allowed on a list or map: ` +
		`use x-kubernetes-key-mutability: %[1]s for its keys, or put x-kubernetes-mutability: %[1]s on its additionalProperties`
)

const (
	mutAt = ".x-kubernetes-mutability: "
	keyAt = ".x-kubernetes-key-mutability: "
)

func TestSchemaErrors(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   []string
	}{{
		name:   "unsupported values",
		schema: `{type: object, properties: {foo: {type: string, x-kubernetes-mutability: Sometimes}, l: {type: array, x-kubernetes-key-mutability: immutable}}}`,
		want: []string{
			docPath("foo") + mutAt + sprintf(unsupported, `"Sometimes"`),
			docPath("l") + keyAt + sprintf(unsupported, `"immutable"`),
		},
	}, {
		name:   "not a string",
		schema: `{type: object, properties: {foo: {type: string, x-kubernetes-mutability: true}}}`,
		want:   []string{docPath("foo") + mutAt + sprintf(unsupported, "true")},
	}, {
		name:   "root",
		schema: `{type: object, x-kubernetes-mutability: Immutable, x-kubernetes-key-mutability: AddOnly}`,
		want: []string{
			"openAPIV3Schema" + keyAt + forbiddenRoot,
			"openAPIV3Schema" + mutAt + forbiddenRoot,
		},
	}, {
		name: "metadata and below",
		schema: `
type: object
properties:
  metadata:
    type: object
    x-kubernetes-mutability: Immutable
    properties:
      name: {type: string, x-kubernetes-mutability: Immutable}
      labels:
        type: object
        x-kubernetes-key-mutability: AddOnly
        additionalProperties: {type: string}`,
		want: []string{
			docPath("metadata", "labels") + keyAt + forbiddenMetadata,
			docPath("metadata", "name") + mutAt + forbiddenMetadata,
			docPath("metadata") + mutAt + forbiddenMetadata,
		},
	}, {
		name:   "metadata below the root is a field",
		schema: `{type: object, properties: {spec: {type: object, properties: {metadata: {type: string, x-kubernetes-mutability: Immutable}}}}}`,
	}, {
		name: "key mutability on a non-collection",
		schema: `
type: object
properties:
  obj: {type: object, x-kubernetes-key-mutability: Immutable, properties: {a: {type: string}}}
  str: {type: string, x-kubernetes-key-mutability: AddOnly}
  open: {type: object, x-kubernetes-key-mutability: RemoveOnly, additionalProperties: true}`,
		want: []string{
			docPath("obj") + keyAt + forbiddenKeys,
			docPath("open") + keyAt + forbiddenKeys,
			docPath("str") + keyAt + forbiddenKeys,
		},
	}, {
		name: "AddOnly and RemoveOnly on collections",
		schema: `
type: object
properties:
  l: {type: array, x-kubernetes-mutability: AddOnly, items: {type: string}}
  s: {type: array, x-kubernetes-list-type: set, x-kubernetes-mutability: RemoveOnly, items: {type: string}}
  m: {type: object, x-kubernetes-mutability: RemoveOnly, additionalProperties: {type: string}}
  ok: {type: array, x-kubernetes-mutability: Immutable, items: {type: string}}`,
		want: []string{
			docPath("l") + mutAt + sprintf(narrowingItems, addOnly),
			docPath("m") + mutAt + sprintf(narrowingValues, removeOnly),
			docPath("s") + mutAt + sprintf(narrowingItems, removeOnly),
		},
	}, {
		name: "junctors",
		schema: `
type: object
properties:
  spec:
    type: object
    allOf:
    - properties:
        a: {x-kubernetes-mutability: Immutable}
    anyOf:
    - {}
    - properties:
        b:
          items: {x-kubernetes-key-mutability: AddOnly}
    oneOf:
    - x-kubernetes-mutability: Immutable
    not:
      additionalProperties: {x-kubernetes-mutability: RemoveOnly}`,
		want: []string{
			"openAPIV3Schema.properties[spec].allOf[0].properties[a]" + mutAt + forbiddenJunctor,
			"openAPIV3Schema.properties[spec].anyOf[1].properties[b].items" + keyAt + forbiddenJunctor,
			"openAPIV3Schema.properties[spec].not.additionalProperties" + mutAt + forbiddenJunctor,
			"openAPIV3Schema.properties[spec].oneOf[0]" + mutAt + forbiddenJunctor,
		},
	}, {
		name:   "invalid and misplaced",
		schema: `{type: object, properties: {metadata: {type: object, x-kubernetes-mutability: Never}}}`,
		want: []string{
			docPath("metadata") + mutAt + forbiddenMetadata,
			docPath("metadata") + mutAt + sprintf(unsupported, `"Never"`),
		},
	}, {
		name: "allowed everywhere else",
		schema: `
type: object
properties:
  spec:
    type: object
    x-kubernetes-mutability: AddOnly
    properties:
      set:
        type: array
        x-kubernetes-list-type: set
        x-kubernetes-key-mutability: RemoveOnly
        items: {type: string, x-kubernetes-mutability: AddOnly}
      m:
        type: object
        x-kubernetes-mutability: Immutable
        x-kubernetes-key-mutability: Immutable
        additionalProperties: {type: integer, x-kubernetes-mutability: RemoveOnly}`,
	}}
	for _, tt := range tests {
		_, err := NewChecker(testcrd.Decode(t, tt.schema))
		if got := errorLines(err); got != strings.Join(tt.want, "\n") {
			t.Errorf("%s: NewChecker(%s) =\n%s\nwant\n%s", tt.name, tt.schema, got, strings.Join(tt.want, "\n"))
		}
	}
}

// errorLines renders each error of the aggregate on its own line.
func errorLines(err error) string {
	if err == nil {
		return ""
	}
	agg, ok := err.(utilerrors.Aggregate)
	if !ok {
		return "not an aggregate: " + err.Error()
	}
	var out []string
	for _, e := range agg.Errors() {
		out = append(out, e.Error())
	}
	return strings.Join(out, "\n")
}

// The brief's example of an unsupported value, verbatim.
func TestUnsupportedMessage(t *testing.T) {
	_, err := NewChecker(testcrd.Decode(t, `{type: object, properties: {spec: {type: object, properties: {foo: {type: string, x-kubernetes-mutability: Sometimes}}}}}`))
	want := `openAPIV3Schema.properties[spec].properties[foo].x-kubernetes-mutability: Unsupported value: "Sometimes": supported values: "Immutable", "AddOnly", "RemoveOnly"`
	if err == nil || err.Error() != want {
		t.Errorf("NewChecker(Sometimes) = %v, want %s", err, want)
	}
}
