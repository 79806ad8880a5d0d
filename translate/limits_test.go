package translate_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/internal/limits"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
)

// manyFields is a schema whose spec has n integer fields, each declared
// Immutable.
func manyFields(n int) string {
	var b strings.Builder
	b.WriteString("{type: object, properties: {spec: {type: object, properties: {")
	for i := range n {
		fmt.Fprintf(&b, "f%d: {type: integer, x-kubernetes-mutability: Immutable}, ", i)
	}
	b.WriteString("}}}}")
	return b.String()
}

// deepField is a schema with a string declared Immutable depth steps
// below the root.
func deepField(depth int) string {
	return strings.Repeat("{type: object, properties: {a: ", depth) +
		"{type: string, maxLength: 10, x-kubernetes-mutability: Immutable}" + strings.Repeat("}}", depth)
}

// TestLimits translates CRDs at and past the limits on declarations: one
// past is a refusal naming the limit, before anything is compiled, never
// an internal error (a path 250 steps deep used to make a rule CEL could
// not parse).
func TestLimits(t *testing.T) {
	const root = "spec.versions[0].schema.openAPIV3Schema"
	for _, tc := range []struct {
		name, schema string
		want         string // "" for a translation
	}{
		{"declarations at the limit", manyFields(limits.Declarations), ""},
		{"declarations past the limit", manyFields(limits.Declarations + 1),
			"spec.versions: Forbidden: 1001 declarations, more than the 1000 one CRD may make (docs/limits.md): declare on a parent instead of on each of its fields (an Immutable object keeps all of them), or split the CRD"},
		{"depth at the limit", deepField(limits.DeclarationDepth), ""},
		{"depth past the limit", deepField(limits.DeclarationDepth + 1),
			root + strings.Repeat(".properties[a]", limits.DeclarationDepth+1) + ".x-kubernetes-mutability: Forbidden: declared 101 levels deep, more than the 100 mut2cel compiles (docs/limits.md): the rules would nest past what CEL parses; declare on a parent"},
		{"depth 250", deepField(250),
			root + strings.Repeat(".properties[a]", 250) + ".x-kubernetes-mutability: Forbidden: declared 250 levels deep, more than the 100 mut2cel compiles (docs/limits.md): the rules would nest past what CEL parses; declare on a parent"},
	} {
		if testing.Short() && tc.name == "declarations at the limit" {
			continue // 7 s: the apiserver's validation is quadratic in rules
		}
		_, err := translate.Translate(testcrd.WithSchema(t, tc.schema), translate.Options{})
		var terr *translate.Error
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: Translate = %v, want a translation", tc.name, err)
		case tc.want == "":
		case !errors.As(err, &terr) || len(terr.Problems) != 1 || terr.Problems[0].String() != tc.want:
			t.Errorf("%s: Translate = %v, want\n%s", tc.name, err, tc.want)
		}
	}
}

// BenchmarkDeclarations translates a CRD with n declared fields. The
// apiserver's validation of the result, which translate runs, checks each
// rule's fieldPath against the whole schema, so the time grows with the
// square of n; limits.Declarations keeps it to seconds.
func BenchmarkDeclarations(b *testing.B) {
	for _, n := range []int{100, 300, limits.Declarations} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			doc := testcrd.WithSchema(b, manyFields(n))
			for b.Loop() {
				if _, err := translate.Translate(doc, translate.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTooManyDeclarations is a CRD with a hundred times the limit:
// it is refused in time linear in its size.
func BenchmarkTooManyDeclarations(b *testing.B) {
	doc := testcrd.WithSchema(b, manyFields(100*limits.Declarations))
	for b.Loop() {
		if _, err := translate.Translate(doc, translate.Options{}); err == nil {
			b.Fatal("Translate = nil error, want the limit")
		}
	}
}
