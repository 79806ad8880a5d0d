package translate_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/translate"
)

// TestErrors checks every refusal with its full message.
func TestErrors(t *testing.T) {
	const root = "spec.versions[0].schema.openAPIV3Schema"
	cases := []struct {
		name    string
		version translate.KubeVersion
		schema  string
		want    []string
	}{{
		name:   "unknown value",
		schema: `{type: object, properties: {foo: {type: string, x-kubernetes-mutability: Sometimes}}}`,
		want:   []string{root + `.properties[foo].x-kubernetes-mutability: Unsupported value: "Sometimes": supported values: "Immutable", "AddOnly", "RemoveOnly"`},
	}, {
		name:   "not a string",
		schema: `{type: object, properties: {foo: {type: string, x-kubernetes-key-mutability: true}}}`,
		want:   []string{root + `.properties[foo].x-kubernetes-key-mutability: Unsupported value: true: supported values: "Immutable", "AddOnly", "RemoveOnly"`},
	}, {
		name:   "root",
		schema: `{type: object, x-kubernetes-mutability: Immutable, properties: {foo: {type: string}}}`,
		want:   []string{root + `.x-kubernetes-mutability: Forbidden: must not be set on the schema root: the apiserver owns apiVersion, kind and metadata; declare the fields below the root instead`},
	}, {
		name:   "metadata",
		schema: `{type: object, properties: {metadata: {type: object, properties: {name: {type: string, x-kubernetes-mutability: Immutable}}}}}`,
		want:   []string{root + `.properties[metadata].properties[name].x-kubernetes-mutability: Forbidden: must not be set in metadata: the apiserver owns object metadata`},
	}, {
		// Issue 27, class 3: the apiserver's CEL sees only name and
		// generateName of an embedded resource's metadata.
		name: "labels of an embedded resource",
		schema: `{type: object, properties: {t: {type: object, x-kubernetes-embedded-resource: true, properties: {metadata: {type: object, properties: {
  labels: {type: object, maxProperties: 4, x-kubernetes-key-mutability: AddOnly, additionalProperties: {type: string, maxLength: 4}},
  name: {type: string, maxLength: 8, x-kubernetes-mutability: Immutable}}}}}}}`,
		want: []string{root + `.properties[t].properties[metadata].properties[labels].x-kubernetes-key-mutability: Forbidden: cannot be translated exactly: t.metadata.labels is in the metadata of the embedded resource at t, of which the apiserver's CEL sees only name and generateName, so no rule can read it; declare metadata.name, or fields outside metadata`},
	}, {
		// Issue 27, class 4: CEL's == does not see keys one side lacks.
		name:   "free-form object",
		schema: `{type: object, properties: {free: {type: object, additionalProperties: true, x-kubernetes-mutability: Immutable}}}`,
		want:   []string{root + `.properties[free].x-kubernetes-mutability: Forbidden: cannot be translated exactly: the value at free is a free-form object (additionalProperties: true), and the apiserver's CEL compares its keys only when both sides have them, so no rule can see one added, removed or renamed; declare the known fields inside it instead`},
	}, {
		name:   "key mutability on a struct",
		schema: `{type: object, properties: {foo: {type: object, x-kubernetes-key-mutability: AddOnly, properties: {a: {type: string}}}}}`,
		want:   []string{root + `.properties[foo].x-kubernetes-key-mutability: Forbidden: only allowed on type: array or on type: object with an additionalProperties schema; the properties of an object are not a key set: put x-kubernetes-mutability on each property instead`},
	}, {
		name:   "key mutability on a scalar",
		schema: `{type: object, properties: {foo: {type: string, x-kubernetes-key-mutability: Immutable}}}`,
		want:   []string{root + `.properties[foo].x-kubernetes-key-mutability: Forbidden: only allowed on type: array or on type: object with an additionalProperties schema; the properties of an object are not a key set: put x-kubernetes-mutability on each property instead`},
	}, {
		name:   "AddOnly on a list",
		schema: `{type: object, properties: {foo: {type: array, x-kubernetes-mutability: AddOnly, items: {type: string}}}}`,
		want:   []string{root + `.properties[foo].x-kubernetes-mutability: Invalid value: "AddOnly": only Immutable is allowed on a list or map: use x-kubernetes-key-mutability: AddOnly for its keys, or put x-kubernetes-mutability: AddOnly on its items`},
	}, {
		name:   "RemoveOnly on a map",
		schema: `{type: object, properties: {foo: {type: object, x-kubernetes-mutability: RemoveOnly, additionalProperties: {type: string}}}}`,
		want:   []string{root + `.properties[foo].x-kubernetes-mutability: Invalid value: "RemoveOnly": only Immutable is allowed on a list or map: use x-kubernetes-key-mutability: RemoveOnly for its keys, or put x-kubernetes-mutability: RemoveOnly on its additionalProperties`},
	}, {
		name:   "inside a junctor",
		schema: `{type: object, properties: {foo: {type: string, anyOf: [{maxLength: 3, x-kubernetes-mutability: Immutable}]}}}`,
		want:   []string{root + `.properties[foo].anyOf[0].x-kubernetes-mutability: Forbidden: must not be set inside allOf, anyOf, oneOf or not: those branches only validate values and do not describe fields; move it to the field's schema under properties, items or additionalProperties`},
	}, {
		name:   "every problem is reported",
		schema: `{type: object, x-kubernetes-key-mutability: Immutable, properties: {a: {type: string, x-kubernetes-mutability: Never}, b: {type: integer, x-kubernetes-key-mutability: AddOnly}}}`,
		want: []string{
			root + `.properties[a].x-kubernetes-mutability: Unsupported value: "Never": supported values: "Immutable", "AddOnly", "RemoveOnly"`,
			root + `.properties[b].x-kubernetes-key-mutability: Forbidden: only allowed on type: array or on type: object with an additionalProperties schema; the properties of an object are not a key set: put x-kubernetes-mutability on each property instead`,
			root + `.x-kubernetes-key-mutability: Forbidden: must not be set on the schema root: the apiserver owns apiVersion, kind and metadata; declare the fields below the root instead`,
		},
	}, {
		name:   "misspelt key",
		schema: `{type: object, properties: {foo: {type: string, x-kubernetes-mutabilty: Immutable}}}`,
		want:   []string{root + `.properties[foo].x-kubernetes-mutabilty: Invalid value: unknown key "x-kubernetes-mutabilty": did you mean x-kubernetes-mutability? (neither mut2cel nor the apiserver reads it, so nothing would enforce the declaration)`},
	}, {
		name: "misspelt keys anywhere, beside declarations that translate",
		schema: `{type: object, properties: {
		  foo: {type: array, maxItems: 4, X-Kubernetes-Key-Mutability: AddOnly, items: {type: string, maxLength: 4, x-kubernetes-immutable: true}},
		  bar: {type: string, maxLength: 4, x-kubernetes-mutability: Immutable, anyOf: [{x-kubernetes-updates: [NoSet]}]}}}`,
		want: []string{
			root + `.properties[bar].anyOf[0].x-kubernetes-updates: Invalid value: unknown key "x-kubernetes-updates": did you mean x-kubernetes-update? (neither mut2cel nor the apiserver reads it, so nothing would enforce the declaration)`,
			root + `.properties[foo].X-Kubernetes-Key-Mutability: Invalid value: unknown key "X-Kubernetes-Key-Mutability": did you mean x-kubernetes-key-mutability? (neither mut2cel nor the apiserver reads it, so nothing would enforce the declaration)`,
			root + `.properties[foo].items.x-kubernetes-immutable: Invalid value: unknown key "x-kubernetes-immutable": did you mean x-kubernetes-mutability? (neither mut2cel nor the apiserver reads it, so nothing would enforce the declaration)`,
		},
	}, {
		name:   "preserve unknown fields",
		schema: `{type: object, properties: {foo: {type: object, x-kubernetes-preserve-unknown-fields: true, x-kubernetes-mutability: Immutable}}}`,
		want:   []string{root + `.properties[foo].x-kubernetes-mutability: Forbidden: cannot be translated exactly: the value at foo keeps unknown fields (x-kubernetes-preserve-unknown-fields), and the apiserver's CEL compares unknown fields only when both sides have them, so no rule can see one added or removed; declare the known fields inside it instead`},
	}, {
		name:   "unescapable name",
		schema: `{type: object, properties: {spec: {type: object, properties: {1abc: {type: string, maxLength: 4, x-kubernetes-mutability: AddOnly}}}}}`,
		want:   []string{root + `.properties[spec].properties[1abc].x-kubernetes-mutability: Forbidden: cannot be translated exactly: property name "1abc" cannot be named in a CEL rule (the Kubernetes escaping has no form for it), so no rule above it can read it; rename the property or move the declaration`},
	}, {
		name:    "index iteration below 1.33 without maxItems",
		version: translate.KubeVersion{Major: 1, Minor: 32},
		schema:  `{type: object, properties: {foo: {type: array, items: {type: string, maxLength: 4, x-kubernetes-mutability: Immutable}}}}`,
		want:    []string{root + `.properties[foo].items.x-kubernetes-mutability: Forbidden: cannot be translated exactly: comparing the items of foo index by index needs two-variable comprehensions, which new CRD rules can use from Kubernetes 1.33; for older targets mut2cel enumerates the indices up to the list's maxItems (at most 256): give it in the schema, as maxItems of the field in a declarations file, or as a run-wide floor`},
	}}
	// A declaration 250 levels deep needs a presence rule of 250 field
	// selections on the root, more than CEL parses: it was an internal
	// error, and is now refused by the depth limit of docs/limits.md
	// before any rule is built.
	deep := "{type: string, maxLength: 4, x-kubernetes-mutability: Immutable}"
	deep = "{type: object, properties: {leaf: " + deep + "}}"
	for range 250 {
		deep = "{type: object, properties: {a: " + deep + "}}"
	}
	cases = append(cases, struct {
		name    string
		version translate.KubeVersion
		schema  string
		want    []string
	}{name: "deeper than CEL parses", schema: deep, want: []string{root + strings.Repeat(".properties[a]", 250) + ".properties[leaf].x-kubernetes-mutability: Forbidden: declared 251 levels deep, more than the 100 mut2cel compiles (docs/limits.md): the rules would nest past what CEL parses; declare on a parent"}})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := translate.Translate(crdWith(t, c.schema), translate.Options{KubeVersion: c.version})
			var terr *translate.Error
			if !errors.As(err, &terr) {
				t.Fatalf("Translate = %v, want *translate.Error", err)
			}
			var got []string
			for _, p := range terr.Problems {
				got = append(got, p.String())
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("Translate problems =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func TestRejectsV1beta1(t *testing.T) {
	doc := crdWith(t, `{type: object}`)
	doc["apiVersion"] = "apiextensions.k8s.io/v1beta1"
	_, err := translate.Translate(doc, translate.Options{})
	want := `apiVersion: Unsupported value: "apiextensions.k8s.io/v1beta1": only apiextensions.k8s.io/v1 CRDs can be translated; convert the CRD to v1 first`
	if err == nil || err.Error() != want {
		t.Errorf("Translate(v1beta1) = %v, want %s", err, want)
	}
}

// TestCheckSpelling checks the keys that look like mut2cel's and are not,
// in schemas and among the annotations, for readers that do not translate,
// and that Translate reports them too.
func TestCheckSpelling(t *testing.T) {
	const root = "spec.versions[0].schema.openAPIV3Schema"
	for _, c := range []struct {
		name        string
		schema      string
		annotations map[string]string
		want        string
	}{{
		name:   "none",
		schema: `{type: object, x-kubernetes-preserve-unknown-fields: true, properties: {foo: {type: string, x-kubernetes-mutability: Immutable}}}`,
		annotations: map[string]string{
			"mut2cel.io/declarations": "v1: {.foo: {x-kubernetes-mutability: Immutable}}",
			"example.com/declaration": "theirs",
		},
	}, {
		name:   "in the schema",
		schema: `{type: object, properties: {foo: {type: string, x-kubernetes-mutabilty: Immutable}}}`,
		want:   root + `.properties[foo].x-kubernetes-mutabilty: Invalid value: unknown key "x-kubernetes-mutabilty": did you mean x-kubernetes-mutability? (neither mut2cel nor the apiserver reads it, so nothing would enforce the declaration)`,
	}, {
		name:        "a misspelt annotation",
		schema:      `{type: object, properties: {foo: {type: string}}}`,
		annotations: map[string]string{"mut2cel.io/declaration": "v1: {.foo: {x-kubernetes-mutability: Immutable}}"},
		want:        `metadata.annotations[mut2cel.io/declaration]: Invalid value: unknown annotation "mut2cel.io/declaration": did you mean mut2cel.io/declarations? (mut2cel reads only mut2cel.io/declarations and mut2cel.io/generated)`,
	}, {
		name:        "an annotation close to mut2cel's outside its prefix",
		schema:      `{type: object, properties: {foo: {type: string}}}`,
		annotations: map[string]string{"mut2cel/generated": "v1: {}"},
		want:        `metadata.annotations[mut2cel/generated]: Invalid value: unknown annotation "mut2cel/generated": did you mean mut2cel.io/generated? (mut2cel reads only mut2cel.io/declarations and mut2cel.io/generated)`,
	}, {
		name:        "another annotation under mut2cel's prefix",
		schema:      `{type: object, properties: {foo: {type: string}}}`,
		annotations: map[string]string{"mut2cel.io/owner": "me"},
		want:        `metadata.annotations[mut2cel.io/owner]: Invalid value: unknown annotation "mut2cel.io/owner": mut2cel reads only mut2cel.io/declarations and mut2cel.io/generated, and the prefix mut2cel.io/ is its own: rename or remove it`,
	}} {
		t.Run(c.name, func(t *testing.T) {
			doc := crdWith(t, c.schema)
			for k, v := range c.annotations {
				setAnnotation(doc, k, v)
			}
			err := translate.CheckSpelling(doc)
			if got := errorText(err); got != c.want {
				t.Errorf("CheckSpelling = %s\nwant %s", got, c.want)
			}
			_, err = translate.Translate(doc, translate.Options{})
			if got := errorText(err); got != c.want {
				t.Errorf("Translate error = %s\nwant %s", got, c.want)
			}
		})
	}
}

func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestNoDeclarationsNoEdits(t *testing.T) {
	res, err := translate.Translate(crdWith(t, `{type: object, properties: {foo: {type: string}}}`), translate.Options{})
	if err != nil || res.Changed() {
		t.Errorf("Translate(no declarations) = %v, %v; want no edits", res, err)
	}
}

// No problem hides another: an annotation that does not read, a
// declarations file naming a node the schema lacks, a misplaced
// declaration in the schema and one that cannot be compiled are all
// reported in one run, the file's first, then by path.
func TestEveryProblemReported(t *testing.T) {
	doc := crdWith(t, `{type: object, x-kubernetes-mutability: Immutable, properties: {
	  foo: {type: object, x-kubernetes-preserve-unknown-fields: true, x-kubernetes-mutability: Immutable},
	  bar: {type: string, x-kubernetes-update: [NoModify]}}}`)
	setAnnotation(doc, "mut2cel.io/declarations", "v1: [")
	sets, err := decl.ParseFile("decls.yaml", []byte(`apiVersion: mut2cel.io/v1alpha1
kind: Declarations
crd: widgets.example.com
fields:
  .baz:
    x-kubernetes-mutability: Immutable
  .bar:
    x-kubernetes-update: [NoSet]
  .foo[*]:
    x-kubernetes-update: [NoSet]
`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = translate.Translate(doc, translate.Options{Declarations: sets})
	var terr *translate.Error
	if !errors.As(err, &terr) {
		t.Fatalf("Translate = %v, want *translate.Error", err)
	}
	const root = "spec.versions[0].schema.openAPIV3Schema"
	want := []string{
		`decls.yaml:5: version v1, .baz: Not found: no such node in the schema of CRD widgets.example.com; did you mean .bar? (every served version is declared: list those that have it under versions)`,
		`decls.yaml:7: version v1, .bar: x-kubernetes-update: Invalid value: [NoSet], but CRD widgets.example.com declares [NoModify] here already (in its schema or its mut2cel.io/declarations annotation): keep one of the two`,
		`decls.yaml:9: version v1, .foo[*]: Not found: no such node in the schema of CRD widgets.example.com (every served version is declared: list those that have it under versions)`,
		`metadata.annotations[mut2cel.io/declarations]: Invalid value: not a map of version -> schema path -> extension -> value: line 1: did not find expected node content`,
		root + `.properties[foo].x-kubernetes-mutability: Forbidden: cannot be translated exactly: the value at foo keeps unknown fields (x-kubernetes-preserve-unknown-fields), and the apiserver's CEL compares unknown fields only when both sides have them, so no rule can see one added or removed; declare the known fields inside it instead`,
		root + `.x-kubernetes-mutability: Forbidden: must not be set on the schema root: the apiserver owns apiVersion, kind and metadata; declare the fields below the root instead`,
	}
	var got []string
	for _, p := range terr.Problems {
		got = append(got, p.String())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Translate problems =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A declaration from a declarations file that cannot stand where it
// points is reported at its line, with the same words as in a schema.
func TestFileDeclarationMisplaced(t *testing.T) {
	doc := crdWith(t, `{type: object, properties: {tags: {type: array, items: {type: string}}}}`)
	sets, err := decl.ParseFile("decls.yaml", []byte(`apiVersion: mut2cel.io/v1alpha1
kind: Declarations
crd: widgets.example.com
fields:
  .tags[*]:
    x-kubernetes-update: [NoSet]
  .tags:
    x-kubernetes-mutability: AddOnly
`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = translate.Translate(doc, translate.Options{Declarations: sets})
	want := `2 problems:
  decls.yaml:5: version v1, .tags[*]: x-kubernetes-update: Forbidden: [NoSet]: an entry that appears or disappears is a key of its collection: declare NoAddItem or NoRemoveItem on the collection
  decls.yaml:7: version v1, .tags: x-kubernetes-mutability: Invalid value: "AddOnly": only Immutable is allowed on a list or map: use x-kubernetes-key-mutability: AddOnly for its keys, or put x-kubernetes-mutability: AddOnly on its items`
	if err == nil || err.Error() != want {
		t.Errorf("Translate() error = %v\nwant %s", err, want)
	}
}

// DeclaredWith writes a file's declarations into the schema without
// compiling them: one no rule can express is written as it is (verify
// --against checks published rules against it), while one naming a node
// the CRD lacks is still an error at its line.
func TestDeclaredWith(t *testing.T) {
	doc := crdWith(t, `{type: object, properties: {spec: {type: object, properties: {at: {type: string, format: date-time}}}}}`)
	file := func(path string) []decl.Set {
		sets, err := decl.ParseFile("decls.yaml", []byte("apiVersion: mut2cel.io/v1alpha1\nkind: Declarations\ncrd: widgets.example.com\nfields:\n  "+path+":\n    x-kubernetes-mutability: Immutable\n"))
		if err != nil {
			t.Fatal(err)
		}
		return sets
	}
	if _, err := translate.Translate(doc, translate.Options{Declarations: file(".spec.at")}); err == nil {
		t.Fatalf("Translate(date-time Immutable) succeeded, want a refusal")
	}
	declared, err := translate.DeclaredWith(doc, translate.Options{Declarations: file(".spec.at")})
	if err != nil {
		t.Fatal(err)
	}
	at := declared["spec"].(map[string]interface{})["versions"].([]interface{})[0].(map[string]interface{})["schema"].(map[string]interface{})["openAPIV3Schema"].(map[string]interface{})["properties"].(map[string]interface{})["spec"].(map[string]interface{})["properties"].(map[string]interface{})["at"].(map[string]interface{})
	if at["x-kubernetes-mutability"] != "Immutable" {
		t.Errorf("DeclaredWith: .spec.at = %v, want the declaration written in", at)
	}
	_, err = translate.DeclaredWith(doc, translate.Options{Declarations: file(".spec.on")})
	want := "decls.yaml:5: version v1, .spec.on: Not found: no such node in the schema of CRD widgets.example.com (every served version is declared: list those that have it under versions)"
	if err == nil || err.Error() != want {
		t.Errorf("DeclaredWith(missing node) = %v, want %s", err, want)
	}
}
