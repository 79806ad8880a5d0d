package translate_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/translate"
)

// Each case edits a translated CRD the way a user would and translates it
// again.
var userEdits = []struct {
	name   string
	edit   func(doc map[string]interface{})
	check  func(t *testing.T, before, after map[string]interface{})
	warned string // text every warning must contain; "" means no warning
}{{
	name: "new declaration in the schema",
	edit: func(doc map[string]interface{}) {
		schemaAt(doc, "spec", "size")["x-kubernetes-mutability"] = "AddOnly"
	},
	check: func(t *testing.T, before, after map[string]interface{}) {
		if got := annotation(after, "mut2cel.io/declarations"); !strings.Contains(got, "  .spec.size:\n    x-kubernetes-mutability: AddOnly\n") ||
			!strings.Contains(got, ".spec.class") {
			t.Errorf("declarations annotation = %q, want .spec.class and .spec.size", got)
		}
		old, now := rulesAt(before), rulesAt(after)
		if !reflect.DeepEqual(now[:len(old)], old) || len(now) != len(old)+1 {
			t.Errorf("root rules %q -> %q, want the old ones in place and one more", old, now)
		}
	},
}, {
	name: "annotation edited",
	edit: func(doc map[string]interface{}) {
		setAnnotation(doc, "mut2cel.io/declarations", "v1:\n  .spec.class: {x-kubernetes-mutability: AddOnly}\n")
	},
	check: func(t *testing.T, before, after map[string]interface{}) {
		if got := rulesAt(after, "spec", "tags"); got != nil {
			t.Errorf("rules of the undeclared tags = %q, want none", got)
		}
		if got := rulesAt(after); len(got) != 2 || !strings.Contains(got[1], "has(oldSelf.spec.class)") {
			t.Errorf("root rules = %q, want the hand-written one and the AddOnly presence rule", got)
		}
		if got := annotation(after, "mut2cel.io/declarations"); got != "v1:\n  .spec.class: {x-kubernetes-mutability: AddOnly}\n" {
			t.Errorf("declarations annotation = %q, want the user's text kept", got)
		}
	},
}, {
	name: "annotation reformatted by hand",
	edit: func(doc map[string]interface{}) {
		setAnnotation(doc, "mut2cel.io/declarations", "# mine\nv1: {.spec.tags: {x-kubernetes-key-mutability: AddOnly},\n  .spec.class: {x-kubernetes-mutability: Immutable}}\n")
	},
	check: func(t *testing.T, before, after map[string]interface{}) {
		if got := annotation(after, "mut2cel.io/declarations"); !strings.HasPrefix(got, "# mine") {
			t.Errorf("an annotation with the same declarations was rewritten: %q", got)
		}
		if !reflect.DeepEqual(rulesAt(after), rulesAt(before)) {
			t.Errorf("rules changed although the declarations did not")
		}
	},
}, {
	name: "every declaration deleted",
	edit: func(doc map[string]interface{}) {
		delete(doc["metadata"].(map[string]interface{})["annotations"].(map[string]interface{}), "mut2cel.io/declarations")
	},
	check: func(t *testing.T, before, after map[string]interface{}) {
		if !reflect.DeepEqual(after, withoutDeclarationsDoc(t)) {
			t.Errorf("without declarations the CRD is not back to its original:\n%v", after)
		}
	},
}, {
	name: "generated message edited",
	edit: func(doc map[string]interface{}) {
		rule := schemaAt(doc, "spec", "class")["x-kubernetes-validations"].([]interface{})[0].(map[string]interface{})
		rule["message"] = "the class is fixed"
	},
	check: func(t *testing.T, before, after map[string]interface{}) {
		list := schemaAt(after, "spec", "class")["x-kubernetes-validations"].([]interface{})
		if len(list) != 1 || list[0].(map[string]interface{})["message"] != "the class is fixed" {
			t.Errorf("class rules = %v, want only the edited rule", list)
		}
	},
	warned: "is no longer there as mut2cel wrote it",
}, {
	name: "generated rule text edited",
	edit: func(doc map[string]interface{}) {
		rule := schemaAt(doc, "spec", "class")["x-kubernetes-validations"].([]interface{})[0].(map[string]interface{})
		rule["rule"] = "self == oldSelf || oldSelf == ''"
	},
	check: func(t *testing.T, before, after map[string]interface{}) {
		if got := rulesAt(after, "spec", "class"); !reflect.DeepEqual(got, []string{"self == oldSelf || oldSelf == ''", "self == oldSelf"}) {
			t.Errorf("class rules = %q, want the edited one kept and the generated one again", got)
		}
	},
	warned: "an edited copy stays as your own rule",
}, {
	name: "generated rule deleted",
	edit: func(doc map[string]interface{}) {
		delete(schemaAt(doc, "spec", "class"), "x-kubernetes-validations")
	},
	check: func(t *testing.T, before, after map[string]interface{}) {
		if !reflect.DeepEqual(after, before) {
			t.Errorf("the deleted rule is not generated again")
		}
	},
	warned: "is no longer there as mut2cel wrote it",
}, {
	name: "record deleted",
	edit: func(doc map[string]interface{}) {
		delete(doc["metadata"].(map[string]interface{})["annotations"].(map[string]interface{}), "mut2cel.io/generated")
	},
	check: func(t *testing.T, before, after map[string]interface{}) {
		if !reflect.DeepEqual(rulesAt(after), rulesAt(before)) || !reflect.DeepEqual(rulesAt(after, "spec", "class"), rulesAt(before, "spec", "class")) {
			t.Errorf("rules changed: the rules are the user's now and equal texts are not added again")
		}
		if annotation(after, "mut2cel.io/generated") != "" {
			t.Errorf("a record was written although mut2cel added no rule")
		}
	},
}, {
	name: "node moved",
	edit: func(doc map[string]interface{}) {
		props := schemaAt(doc, "spec")["properties"].(map[string]interface{})
		props["kind"], props["class"] = props["class"], nil
		delete(props, "class")
		setAnnotation(doc, "mut2cel.io/declarations", strings.ReplaceAll(annotation(doc, "mut2cel.io/declarations"), ".spec.class", ".spec.kind"))
	},
	check: func(t *testing.T, before, after map[string]interface{}) {
		list := schemaAt(after, "spec", "kind")["x-kubernetes-validations"].([]interface{})
		if len(list) != 1 || list[0].(map[string]interface{})["message"] != "spec.kind is immutable" {
			t.Errorf("kind rules = %v, want the regenerated rule only", list)
		}
		for _, r := range rulesAt(after) {
			if strings.Contains(r, "class") {
				t.Errorf("a root rule still names class: %s", r)
			}
		}
	},
}, {
	name: "version renamed",
	edit: func(doc map[string]interface{}) {
		doc["spec"].(map[string]interface{})["versions"].([]interface{})[0].(map[string]interface{})["name"] = "v2"
		setAnnotation(doc, "mut2cel.io/declarations", strings.Replace(annotation(doc, "mut2cel.io/declarations"), "v1:", "v2:", 1))
	},
	check: func(t *testing.T, before, after map[string]interface{}) {
		if !reflect.DeepEqual(rulesAt(after), rulesAt(before)) || !reflect.DeepEqual(rulesAt(after, "spec", "class"), rulesAt(before, "spec", "class")) {
			t.Errorf("rules changed with the version name")
		}
		if got := annotation(after, "mut2cel.io/generated"); !strings.HasPrefix(got, "v2:\n") {
			t.Errorf("generated annotation = %q, want it under v2", got)
		}
	},
}}

func TestRewriteAfterUserEdits(t *testing.T) {
	for _, c := range userEdits {
		t.Run(c.name, func(t *testing.T) {
			before := rewrite(t, docOf(t, rewriteCRD)).Translated
			edited := roundTrip(t, before)
			c.edit(edited)
			res := rewrite(t, edited)
			c.check(t, before, roundTrip(t, res.Translated))
			for _, w := range res.Warnings {
				if c.warned == "" || !strings.Contains(w.String(), c.warned) {
					t.Errorf("warning %q, want %q", w, c.warned)
				}
			}
			if c.warned != "" && len(res.Warnings) == 0 {
				t.Errorf("no warning, want %q", c.warned)
			}
			if again := rewrite(t, res.Translated); len(again.Edits) != 0 || len(again.Warnings) != 0 {
				t.Errorf("translating once more: edits %+v, warnings %v", again.Edits, again.Warnings)
			}
		})
	}
}

func withoutDeclarationsDoc(t *testing.T) map[string]interface{} {
	return roundTrip(t, withoutDeclarations(t, rewriteCRD))
}

// TestRewriteVersionCopied copies a translated version as a new served
// one, rules included. The copied rules are the user's, since mut2cel
// wrote none of them there, so mut2cel cannot count on them: the new
// version serves the declared paths undeclared, which is an error. With
// AllServedVersions the declarations are copied to it; the rules they
// generate are already there, as the user's, so they are not added again
// and only the declarations annotation changes.
func TestRewriteVersionCopied(t *testing.T) {
	doc := roundTrip(t, rewrite(t, docOf(t, rewriteCRD)).Translated)
	versions := doc["spec"].(map[string]interface{})["versions"].([]interface{})
	v2 := roundTrip(t, versions[0].(map[string]interface{}))
	v2["name"], v2["storage"] = "v2", false
	doc["spec"].(map[string]interface{})["versions"] = append(versions, v2)
	_, err := translate.Translate(doc, translate.Options{})
	if err == nil || !strings.Contains(err.Error(), "version v2 serves .spec.class without the x-kubernetes-mutability: Immutable that version v1 declares there") {
		t.Errorf("Translate() error = %v, want v2 reported", err)
	}
	res := rewriteWith(t, doc, translate.Options{AllServedVersions: true})
	const want = "v1:\n  .spec.class:\n    x-kubernetes-mutability: Immutable\n  .spec.tags:\n    x-kubernetes-key-mutability: AddOnly\n" +
		"v2:\n  .spec.class:\n    x-kubernetes-mutability: Immutable\n  .spec.tags:\n    x-kubernetes-key-mutability: AddOnly\n"
	wantEdits := []edit.Edit{{Path: []interface{}{"metadata", "annotations"}, Create: true,
		Set: []edit.Setting{{Key: "mut2cel.io/declarations", Value: want}}}}
	if !reflect.DeepEqual(res.Edits, wantEdits) {
		t.Errorf("edits %+v, want %+v: the copied rules are kept as they are", res.Edits, wantEdits)
	}
	if again := rewrite(t, roundTrip(t, res.Translated)); len(again.Edits) != 0 {
		t.Errorf("translating once more: edits %+v, want none", again.Edits)
	}
}

func TestRewriteProblems(t *testing.T) {
	for _, c := range []struct {
		name, decls string
		inline      bool // keep the inline declarations
		want        string
	}{
		{"not YAML", "v1: [", false, `metadata.annotations[mut2cel.io/declarations]: Invalid value: not a map of version -> schema path -> extension -> value: line 1: did not find expected node content`},
		{"unknown key", "v1: {.spec.class: {x-kubernetes-mutable: Immutable}}", false, `metadata.annotations[mut2cel.io/declarations]: Invalid value: version v1, .spec.class: unknown key "x-kubernetes-mutable" (did you mean x-kubernetes-mutability?): only x-kubernetes-mutability, x-kubernetes-key-mutability, x-kubernetes-update and x-kubernetes-unions can be declared`},
		{"bad path", "v1: {spec.class: {x-kubernetes-mutability: Immutable}}", false, `metadata.annotations[mut2cel.io/declarations]: Invalid value: version v1: path "spec.class" must start with "." (the schema root), as in .spec.field`},
		{"name needs brackets", "v1: {.spec.a/b: {x-kubernetes-mutability: Immutable}}", false, `metadata.annotations[mut2cel.io/declarations]: Invalid value: version v1: path ".spec.a/b": write the property name "a/b" as ["a/b"]`},
		{"no such node", "v1: {.spec.klass: {x-kubernetes-mutability: Immutable}}", false, `metadata.annotations[mut2cel.io/declarations]: Invalid value: version v1, .spec.klass: no such node in the schema; did you mean .spec.class? (update the path if the field moved, or delete the declaration)`},
		{"no such version", "v9: {.spec.class: {x-kubernetes-mutability: Immutable}}", false, `metadata.annotations[mut2cel.io/declarations]: Invalid value: version v9: the CRD has no version of this name with a schema (rename the key if the version was renamed)`},
		{"bad value", "v1: {.spec.class: {x-kubernetes-mutability: Frozen}}", false, `metadata.annotations[mut2cel.io/declarations]: version v1, .spec.class: x-kubernetes-mutability: Unsupported value: "Frozen": supported values: "Immutable", "AddOnly", "RemoveOnly"`},
		{"conflict", "v1: {.spec.class: {x-kubernetes-mutability: AddOnly}}", true, `spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[class].x-kubernetes-mutability: Invalid value: "Immutable": the mut2cel.io/declarations annotation declares "AddOnly" here: keep one of the two`},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := docOf(t, rewriteCRD)
			if !c.inline {
				doc = withoutDeclarations(t, rewriteCRD)
			}
			setAnnotation(doc, "mut2cel.io/declarations", c.decls)
			_, err := translate.Translate(doc, translate.Options{})
			if err == nil || err.Error() != c.want {
				t.Errorf("Translate() error = %v\nwant %s", err, c.want)
			}
		})
	}
}
