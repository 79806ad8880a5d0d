package translate_test

import (
	"reflect"
	"testing"

	"github.com/mut2cel/mut2cel/translate"
)

// TestSharedPresenceRule checks the one presence rule that fields with one
// carrier share: its message names each field once, and its fieldPath is
// their nearest common ancestor.
func TestSharedPresenceRule(t *testing.T) {
	cases := []struct {
		name, schema string
		want         []string // fieldPath, message and rule of each root rule
	}{{
		name: "two fields spec requires",
		schema: `{type: object, properties: {spec: {type: object, required: [ref], properties: {ref: {type: object, required: [group, kind],
  properties: {group: {type: string, maxLength: 8, x-kubernetes-mutability: Immutable}, kind: {type: string, maxLength: 8, x-kubernetes-mutability: Immutable}}}}}}}`,
		want: []string{".spec.ref", "spec.ref.group and spec.ref.kind cannot be added or removed", "has(self.spec) == has(oldSelf.spec)"},
	}, {
		name: "one field declared twice",
		schema: `{type: object, properties: {spec: {type: object, properties: {a: {type: string, maxLength: 8,
  x-kubernetes-mutability: Immutable, x-kubernetes-update: [NoSet, NoUnset]}}}}}`,
		want: []string{".spec.a", "spec.a cannot be added or removed", "(has(self.spec) && has(self.spec.a)) == (has(oldSelf.spec) && has(oldSelf.spec.a))"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := translate.Translate(crdWith(t, c.schema), translate.Options{})
			if err != nil {
				t.Fatal(err)
			}
			root := typedCRD(t, res.Translated).Spec.Versions[0].Schema.OpenAPIV3Schema
			var got []string
			for _, r := range root.XValidations {
				got = append(got, r.FieldPath, r.Message, r.Rule)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("root rules %q, want %q", got, c.want)
			}
		})
	}
}
