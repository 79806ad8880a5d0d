package reference

import (
	"sort"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
)

// Expected wording of the x-kubernetes-update errors (semantics.md 9.2).
const (
	updAt          = ".x-kubernetes-update"
	notAList       = ": Invalid value: %s: must be a list of constraint names, such as [NoModify] or [NoUnset, NoModify]"
	emptyList      = ": Invalid value: []: must name at least one constraint; remove the key to declare none"
	unknownName    = `: Unsupported value: %s: supported values: "NoSet", "NoUnset", "NoModify", "NoAddItem", "NoRemoveItem"`
	namedTwice     = `: Invalid value: "%s": named twice; list each constraint once`
	presenceOnItem = ": Forbidden: an entry that appears or disappears is a key of its collection: " +
		"declare NoAddItem or NoRemoveItem on the collection"
	itemsOnNonCollection = ": Forbidden: only allowed on type: array or on type: object with an additionalProperties schema; " +
		"the properties of an object are not a key set: declare NoSet or NoUnset on each property instead"
)

func TestUpdateSchemaErrors(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   []string
	}{{
		name:   "not a list",
		schema: `{type: object, properties: {foo: {type: string, x-kubernetes-update: NoModify}, bar: {type: string, x-kubernetes-update: {NoModify: true}}}}`,
		want: []string{
			docPath("foo") + updAt + sprintf(notAList, `"NoModify"`),
			docPath("bar") + updAt + sprintf(notAList, `{"NoModify":true}`),
		},
	}, {
		name:   "empty",
		schema: `{type: object, properties: {foo: {type: string, x-kubernetes-update: []}}}`,
		want:   []string{docPath("foo") + updAt + emptyList},
	}, {
		name:   "unknown names, case-sensitive",
		schema: `{type: object, properties: {foo: {type: string, x-kubernetes-update: [NoModify, Immutable, nomodify, 1]}}}`,
		want: []string{
			docPath("foo") + updAt + "[1]" + sprintf(unknownName, `"Immutable"`),
			docPath("foo") + updAt + "[2]" + sprintf(unknownName, `"nomodify"`),
			docPath("foo") + updAt + "[3]" + sprintf(unknownName, "1"),
		},
	}, {
		name:   "duplicates",
		schema: `{type: object, properties: {foo: {type: string, x-kubernetes-update: [NoModify, NoUnset, NoModify, NoModify]}}}`,
		want: []string{
			docPath("foo") + updAt + "[2]" + sprintf(namedTwice, noModify),
			docPath("foo") + updAt + "[3]" + sprintf(namedTwice, noModify),
		},
	}, {
		name:   "root",
		schema: `{type: object, x-kubernetes-update: [NoModify]}`,
		want:   []string{"openAPIV3Schema" + updAt + ": " + forbiddenRoot},
	}, {
		name: "metadata and below",
		schema: `
type: object
properties:
  metadata:
    type: object
    x-kubernetes-update: [NoModify]
    properties:
      name: {type: string, x-kubernetes-update: [NoSet, NoUnset]}
      labels:
        type: object
        additionalProperties: {type: string, x-kubernetes-update: [NoUnset]}`,
		want: []string{
			docPath("metadata") + updAt + ": " + forbiddenMetadata,
			docPath("metadata", "labels", "additionalProperties") + updAt + ": " + forbiddenMetadata,
			docPath("metadata", "name") + updAt + ": " + forbiddenMetadata,
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
        a: {x-kubernetes-update: [NoModify]}
    not:
      items: {x-kubernetes-update: [NoSet]}`,
		want: []string{
			"openAPIV3Schema.properties[spec].allOf[0].properties[a]" + updAt + ": " + forbiddenJunctor,
			"openAPIV3Schema.properties[spec].not.items" + updAt + ": " + forbiddenJunctor,
		},
	}, {
		name:   "invalid and misplaced",
		schema: `{type: object, x-kubernetes-update: [Never]}`,
		want: []string{
			"openAPIV3Schema" + updAt + ": " + forbiddenRoot,
			"openAPIV3Schema" + updAt + "[0]" + sprintf(unknownName, `"Never"`),
		},
	}, {
		name: "NoSet and NoUnset on entries",
		schema: `
type: object
properties:
  l:
    type: array
    items: {type: string, x-kubernetes-update: [NoModify, NoSet]}
  m:
    type: object
    additionalProperties: {type: string, x-kubernetes-update: [NoUnset, NoSet]}`,
		want: []string{
			docPath("l", "items") + updAt + "[1]" + presenceOnItem,
			docPath("m", "additionalProperties") + updAt + "[0]" + presenceOnItem,
			docPath("m", "additionalProperties") + updAt + "[1]" + presenceOnItem,
		},
	}, {
		name: "NoAddItem and NoRemoveItem on a non-collection",
		schema: `
type: object
properties:
  obj: {type: object, x-kubernetes-update: [NoAddItem], properties: {a: {type: string}}}
  str: {type: string, x-kubernetes-update: [NoModify, NoRemoveItem]}
  open: {type: object, x-kubernetes-update: [NoAddItem, NoRemoveItem], additionalProperties: true}`,
		want: []string{
			docPath("obj") + updAt + "[0]" + itemsOnNonCollection,
			docPath("open") + updAt + "[0]" + itemsOnNonCollection,
			docPath("open") + updAt + "[1]" + itemsOnNonCollection,
			docPath("str") + updAt + "[1]" + itemsOnNonCollection,
		},
	}, {
		name: "allowed everywhere else, next to the KEP extensions",
		schema: `
type: object
properties:
  spec:
    type: object
    x-kubernetes-update: [NoSet, NoUnset, NoModify]
    properties:
      l:
        type: array
        x-kubernetes-update: [NoSet, NoUnset, NoModify, NoAddItem, NoRemoveItem]
        items: {type: string, x-kubernetes-update: [NoModify]}
      s:
        type: array
        x-kubernetes-list-type: set
        x-kubernetes-key-mutability: AddOnly
        x-kubernetes-update: [NoAddItem]
        items: {type: string, x-kubernetes-mutability: Immutable, x-kubernetes-update: [NoModify]}
      m:
        type: object
        x-kubernetes-mutability: Immutable
        x-kubernetes-update: [NoRemoveItem, NoUnset]
        additionalProperties:
          type: object
          properties:
            x: {type: string, x-kubernetes-update: [NoSet]}`,
	}}
	for _, tt := range tests {
		_, err := NewChecker(testcrd.Decode(t, tt.schema))
		sort.Strings(tt.want)
		if got := errorLines(err); got != strings.Join(tt.want, "\n") {
			t.Errorf("%s: NewChecker(%s) =\n%s\nwant\n%s", tt.name, tt.schema, got, strings.Join(tt.want, "\n"))
		}
	}
}
