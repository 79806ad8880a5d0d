package translate_test

import (
	"errors"
	"testing"

	"github.com/mut2cel/mut2cel/translate"
)

// TestRefusalReasons checks that every refusal the semantics allows names
// its reason, and that an invalid declaration names none.
func TestRefusalReasons(t *testing.T) {
	cases := []struct {
		name    string
		version translate.KubeVersion
		schema  string
		opts    translate.Options
		want    string
	}{
		{name: "preserve unknown fields", want: translate.ReasonInexact,
			schema: `{type: object, properties: {foo: {type: object, x-kubernetes-preserve-unknown-fields: true, x-kubernetes-mutability: Immutable}}}`},
		{name: "unescapable name", want: translate.ReasonUnescapableName,
			schema: `{type: object, properties: {spec: {type: object, properties: {1abc: {type: string, maxLength: 4, x-kubernetes-mutability: AddOnly}}}}}`},
		{name: "index iteration below 1.33", version: translate.KubeVersion{Major: 1, Minor: 32}, want: translate.ReasonIndexComparison,
			schema: `{type: object, properties: {foo: {type: array, items: {type: string, maxLength: 4, x-kubernetes-mutability: Immutable}}}}`},
		{name: "formatted value", want: translate.ReasonFormat,
			schema: `{type: object, properties: {at: {type: string, format: date-time, x-kubernetes-mutability: Immutable}}}`},
		{name: "presence of an unreadable date-time", want: translate.ReasonFormat,
			schema: `{type: object, properties: {at: {type: string, format: date-time, x-kubernetes-update: [NoUnset]}}}`},
		{name: "presence of unreadable bytes", want: translate.ReasonFormat,
			schema: `{type: object, properties: {spec: {type: object, properties: {key: {type: string, format: byte, maxLength: 64, x-kubernetes-update: [NoSet]}}}}}`},
		{name: "formatted key", want: translate.ReasonFormat,
			schema: `{type: object, properties: {l: {type: array, maxItems: 4, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [after], x-kubernetes-key-mutability: RemoveOnly, items: {type: object, required: [after], properties: {after: {type: string, format: duration}}}}}}`},
		{name: "cost", opts: translate.Options{MaxItems: 100000}, want: translate.ReasonCost,
			schema: `{type: object, properties: {tags: {type: array, x-kubernetes-list-type: set, x-kubernetes-key-mutability: AddOnly, items: {type: string, maxLength: 63}}}}`},
		{name: "unknown value", want: "",
			schema: `{type: object, properties: {foo: {type: string, x-kubernetes-mutability: Sometimes}}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.opts.KubeVersion = c.version
			_, err := translate.Translate(crdWith(t, c.schema), c.opts)
			var terr *translate.Error
			if !errors.As(err, &terr) || len(terr.Problems) != 1 {
				t.Fatalf("Translate(%s) = %v, want one problem", c.schema, err)
			}
			if got := terr.Problems[0].Reason; got != c.want {
				t.Errorf("Translate(%s) = reason %q (%s), want %q", c.schema, got, terr.Problems[0].Detail, c.want)
			}
		})
	}
}
