package markers

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"

	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
)

// oneOfMembers are the members of the unions the tests below compare.
var oneOfMembers = []string{"secretName", "serviceAccount", "token"}

// TestControllerGenOneOfText checks that the rules ControllerGenRules
// looks for are the ones controller-tools (the version in go.mod) writes
// for ExactlyOneOf and AtMostOneOf: its markers' ApplyToSchema.
func TestControllerGenOneOfText(t *testing.T) {
	for _, exactly := range []bool{true, false} {
		var s apiextensionsv1.JSONSchemaProps
		var err error
		if exactly {
			err = crdmarkers.ExactlyOneOf(oneOfMembers).ApplyToSchema(nil, &s)
		} else {
			err = crdmarkers.AtMostOneOf(oneOfMembers).ApplyToSchema(nil, &s)
		}
		if err != nil || len(s.XValidations) != 1 {
			t.Fatalf("ApplyToSchema = %v, %d rules; want one rule", err, len(s.XValidations))
		}
		got := edit.Rule{Rule: s.XValidations[0].Rule, Message: s.XValidations[0].Message}
		if want := controllerGenOneOfRules(oneOfMembers, exactly)[1]; got != want {
			t.Errorf("controller-tools writes %+v, controllerGenOneOfRules has %+v", got, want)
		}
	}
}

// TestControllerGenOneOfDecidesAlike runs controller-gen's rules for
// ExactlyOneOf and AtMostOneOf (both shapes) and the rule mut2cel writes
// for the same union through the apiserver's CEL validator, on every
// object of three optional members, each set or not: on create, and on
// every update from one to another, with the apiserver's ratcheting.
// They decide alike, which is what ControllerGenRules' warning says.
func TestControllerGenOneOfDecidesAlike(t *testing.T) {
	var objects []map[string]interface{}
	for mask := range 1 << len(oneOfMembers) {
		spec := map[string]interface{}{}
		for i, m := range oneOfMembers {
			if mask&(1<<i) != 0 {
				spec[m] = "x"
			}
		}
		objects = append(objects, map[string]interface{}{"spec": spec})
	}
	for _, exactly := range []bool{true, false} {
		ours := mut2celUnionRule(t, exactly)
		theirs := controllerGenOneOfRules(oneOfMembers, exactly)
		want := ruleValidator(t, ours)
		for _, rule := range theirs {
			got := ruleValidator(t, rule)
			for _, obj := range objects {
				count := len(obj["spec"].(map[string]interface{}))
				allowed := count <= 1 && (!exactly || count == 1)
				if w, g := len(want.Validate(obj, nil)) == 0, len(got.Validate(obj, nil)) == 0; w != allowed || g != w {
					t.Errorf("create %v: mut2cel's %q allows: %t, controller-gen's %q: %t; want %t", obj, ours.Rule, w, rule.Rule, g, allowed)
				}
				for _, old := range objects {
					w := len(want.ValidateRatcheting(obj, old)) == 0
					if g := len(got.ValidateRatcheting(obj, old)) == 0; g != w {
						t.Errorf("update %v to %v: mut2cel's %q allows: %t, controller-gen's %q: %t", old, obj, ours.Rule, w, rule.Rule, g)
					}
				}
			}
		}
		// What differs is the error: mut2cel's has a reason.
		bad := objects[0] // no member set
		if !exactly {
			bad = objects[len(objects)-1] // every member set
		}
		for _, c := range []struct {
			v    *kube.RuleValidator
			want field.ErrorType
		}{
			{want, map[bool]field.ErrorType{true: field.ErrorTypeRequired, false: field.ErrorTypeForbidden}[exactly]},
			{ruleValidator(t, theirs[1]), field.ErrorTypeInvalid},
		} {
			if errs := c.v.Validate(bad, nil); len(errs) != 1 || errs[0].Type != c.want {
				t.Errorf("rules on %v: %v, want one error of type %s", bad, errs, c.want.String())
			}
		}
		t.Logf("%q decides as %q", ours.Rule, []string{theirs[0].Rule, theirs[1].Rule})
	}
}

// oneOfSchema is an object spec with the members, strings.
func oneOfSchema(extra string) string {
	var props []string
	for _, m := range oneOfMembers {
		props = append(props, m+": {type: string, maxLength: 64}")
	}
	return "{type: object, properties: {spec: {type: object, " + extra + "properties: {" + strings.Join(props, ", ") + "}}}}"
}

// mut2celUnionRule is the rule translate writes on spec for a union of
// the members without a discriminator.
func mut2celUnionRule(t *testing.T, exactly bool) edit.Rule {
	t.Helper()
	var members []string
	for _, m := range oneOfMembers {
		members = append(members, m+": ''")
	}
	union := fmt.Sprintf("x-kubernetes-unions: [{fields-to-discriminateBy: {%s}, exactlyOne: %t}], ", strings.Join(members, ", "), exactly)
	res, err := translate.Translate(testcrd.WithSchema(t, oneOfSchema(union)), translate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	node, err := edit.Mapping(res.Translated, []interface{}{"spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec"})
	if err != nil {
		t.Fatal(err)
	}
	rules, _ := node[edit.ValidationsKey].([]interface{})
	if len(rules) != 1 {
		t.Fatalf("translate wrote %d rules on spec, want the union's one: %v", len(rules), rules)
	}
	r, ok := edit.RuleOf(rules[0])
	if !ok {
		t.Fatalf("not a rule: %v", rules[0])
	}
	return r
}

// ruleValidator is the apiserver's validator of the rules of oneOfSchema
// with rule on spec.
func ruleValidator(t *testing.T, rule edit.Rule) *kube.RuleValidator {
	t.Helper()
	entry := map[string]string{"rule": rule.Rule, "message": rule.Message}
	if rule.Reason != "" {
		entry["reason"] = rule.Reason
	}
	data, _ := json.Marshal(entry)
	doc := testcrd.WithSchema(t, oneOfSchema("x-kubernetes-validations: ["+string(data)+"], "))
	raw, _ := json.Marshal(doc["spec"].(map[string]interface{})["versions"].([]interface{})[0].(map[string]interface{})["schema"].(map[string]interface{})["openAPIV3Schema"])
	var props apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal(raw, &props); err != nil {
		t.Fatal(err)
	}
	s, err := kube.Structural(&props)
	if err != nil {
		t.Fatal(err)
	}
	return kube.NewRuleValidator(s)
}
