package markers

import (
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
)

// crdWithRules is a CRD as controller-gen writes it for +k8s:immutable on
// the optional spec.zone, the required spec.backup.bucket and an inline
// struct inlined into spec.source, next to rules of the author's.
const crdWithRules = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: volumes.example.com}
spec:
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - {rule: "!has(oldSelf.zone) || has(self.zone)", message: "field zone is immutable once set"}
            - {rule: "self.zone != 'x'", message: "no x"}
            properties:
              zone:
                type: string
                x-kubernetes-validations:
                - {rule: "self == oldSelf", message: "field is immutable"}
              backup:
                type: object
                required: [bucket]
                properties:
                  bucket:
                    type: string
                    x-kubernetes-validations:
                    - {rule: "self == oldSelf", message: "field is immutable"}
                    - {rule: "self == oldSelf", message: "field is immutable", reason: FieldValueForbidden}
              source:
                type: object
                x-kubernetes-validations:
                - {rule: "self == oldSelf", message: "field is immutable"}
                properties:
                  name: {type: string}
`

func TestControllerGenRules(t *testing.T) {
	var doc map[string]interface{}
	if err := yaml.Unmarshal([]byte(crdWithRules), &doc); err != nil {
		t.Fatal(err)
	}
	before, _ := yaml.Marshal(doc)
	path := func(s string) decl.Path {
		p, err := decl.ParsePath(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	r := &Result{Immutable: []Immutable{
		{CRD: "volumes.example.com", Version: "v1", Path: path(".spec.backup.bucket"), Source: decl.Source{File: "types.go", Line: 3}},
		{CRD: "volumes.example.com", Version: "v1", Path: path(".spec.source"), Inline: true, Source: decl.Source{File: "types.go", Line: 5}},
		{CRD: "volumes.example.com", Version: "v1", Path: path(".spec.zone"), Source: decl.Source{File: "types.go", Line: 7}},
		{CRD: "gadgets.example.com", Version: "v1", Path: path(".spec.zone"), Source: decl.Source{File: "types.go", Line: 9}},
	}}
	without, edits, warnings, err := r.ControllerGenRules(doc)
	if err != nil {
		t.Fatal(err)
	}

	root := []interface{}{"spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec"}
	at := func(steps ...interface{}) []interface{} { return append(append([]interface{}{}, root...), steps...) }
	field := controllerGenFieldRule()
	want := []edit.Edit{
		{Path: at("properties", "backup", "properties", "bucket"), RemoveRules: []edit.Rule{field}},
		{Path: at("properties", "source"), RemoveRules: []edit.Rule{field}},
		{Path: at("properties", "zone"), RemoveRules: []edit.Rule{field}},
		{Path: at(), RemoveRules: []edit.Rule{controllerGenParentRule("zone")}},
	}
	if !reflect.DeepEqual(edits, want) {
		t.Errorf("ControllerGenRules edits =\n%v\nwant\n%v", edits, want)
	}
	if len(warnings) != 4 || !strings.Contains(warnings[3].Detail, `.spec.zone: replaced controller-gen's rule "!has(oldSelf.zone) || has(self.zone)" of +k8s:immutable (types.go:7)`) {
		t.Errorf("ControllerGenRules warnings = %v, want 4, the last about zone's parent rule", warnings)
	}
	if after, _ := yaml.Marshal(doc); string(after) != string(before) {
		t.Errorf("ControllerGenRules changed its input")
	}
	got, _ := yaml.Marshal(without)
	if strings.Contains(string(got), "field zone is immutable once set") || strings.Count(string(got), "message: field is immutable") != 1 {
		t.Errorf("ControllerGenRules left controller-gen's rules, or removed the author's one with a reason:\n%s", got)
	}
	for _, kept := range []string{"no x", "reason: FieldValueForbidden"} {
		if !strings.Contains(string(got), kept) {
			t.Errorf("ControllerGenRules removed the author's rule with %q:\n%s", kept, got)
		}
	}

	again, edits, warnings, err := r.ControllerGenRules(without)
	if err != nil {
		t.Fatal(err)
	}
	if len(edits) > 0 || len(warnings) > 0 || !reflect.DeepEqual(again, without) {
		t.Errorf("ControllerGenRules on its own output = %d edits, %d warnings; want none", len(edits), len(warnings))
	}
}

// crdWithOneOf holds controller-gen's ExactlyOneOf rule in v0.21's shape
// and its AtMostOneOf rule in the later one, beside AtLeastOneOf's, which
// has no union meaning and stays.
const crdWithOneOf = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: volumes.example.com}
spec:
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - {rule: "[has(self.secret),has(self.configMap)].filter(x,x==true).size() == 1", message: "exactly one of the fields in [secret configMap] must be set"}
            - {rule: "(has(self.readOnly)?1:0)+(has(self.readWrite)?1:0) <= 1", message: "at most one of the fields in [readOnly readWrite] may be set"}
            - {rule: "has(self.secret)||has(self.configMap)", message: "at least one of the fields in [secret configMap] must be set"}
            properties:
              secret: {type: string}
              configMap: {type: string}
              readOnly: {type: boolean}
              readWrite: {type: boolean}
`

func TestControllerGenOneOfRules(t *testing.T) {
	var doc map[string]interface{}
	if err := yaml.Unmarshal([]byte(crdWithOneOf), &doc); err != nil {
		t.Fatal(err)
	}
	spec := decl.Path{{Name: "spec"}}
	r := &Result{OneOf: []OneOf{
		{CRD: "volumes.example.com", Version: "v1", Path: spec, Fields: []string{"secret", "configMap"}, Exactly: true, Source: decl.Source{File: "types.go", Line: 3}},
		{CRD: "volumes.example.com", Version: "v1", Path: spec, Fields: []string{"readOnly", "readWrite"}, Source: decl.Source{File: "types.go", Line: 4}},
	}}
	without, edits, warnings, err := r.ControllerGenRules(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(edits) != 2 || len(warnings) != 2 {
		t.Fatalf("ControllerGenRules = %d edits, %d warnings, want 2 each: %v", len(edits), len(warnings), warnings)
	}
	// Both rules decide as mut2cel's (TestControllerGenOneOfDecidesAlike):
	// the warnings say how they differ.
	for i, want := range []string{
		`version v1: .spec: replaced controller-gen's rule "[has(self.secret),has(self.configMap)].filter(x,x==true).size() == 1" of +kubebuilder:validation:ExactlyOneOf=secret;configMap (types.go:3) by mut2cel's rule for the same union, which decides alike, at lower cost, and reports a violation as Required value, not Invalid value (docs/markers.md)`,
		`version v1: .spec: replaced controller-gen's rule "(has(self.readOnly)?1:0)+(has(self.readWrite)?1:0) <= 1" of +kubebuilder:validation:AtMostOneOf=readOnly;readWrite (types.go:4) by mut2cel's rule for the same union, which decides alike, and reports a violation as Forbidden, not Invalid value (docs/markers.md)`,
	} {
		if warnings[i].Detail != want {
			t.Errorf("ControllerGenRules warning %d =\n%s\nwant\n%s", i, warnings[i].Detail, want)
		}
	}
	got, _ := yaml.Marshal(without)
	if strings.Contains(string(got), "exactly one of") || strings.Contains(string(got), "at most one of") || !strings.Contains(string(got), "at least one of") {
		t.Errorf("ControllerGenRules kept a one-of rule, or removed AtLeastOneOf's:\n%s", got)
	}
}

// TestOneOfReplacementsEscape: controller-gen's rule leaves as it is a
// member's name CEL reads only escaped (has(self.foo-bar) does not
// compile), so the warning says that instead of "decides alike".
func TestOneOfReplacementsEscape(t *testing.T) {
	got := oneOfReplacements([]string{"foo-bar", "namespace", "plain"}, true)[1]
	want := "mut2cel's rule for the same union, which escapes foo-bar (foo__dash__bar), namespace (__namespace__) for CEL, where controller-gen's rule does not, and reports a violation as Required value, not Invalid value"
	if got != want {
		t.Errorf("oneOfReplacements =\n%s\nwant\n%s", got, want)
	}
}
