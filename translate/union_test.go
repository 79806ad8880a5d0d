package translate_test

import (
	"strings"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/translate"
)

// The four unions of the verdict table, on members a and b, with or
// without the discriminator type (a selected by A, b by B).
var unionKinds = []struct{ name, yaml string }{
	{"atMostOne", `[{fields-to-discriminateBy: {a: , b: }}]`},
	{"exactlyOne", `[{fields-to-discriminateBy: {a: , b: }, exactlyOne: true}]`},
	{"discriminated", `[{discriminator: type, fields-to-discriminateBy: {a: A, b: B}}]`},
	{"discriminatedExactlyOne", `[{discriminator: type, fields-to-discriminateBy: {a: A, b: B}, exactlyOne: true}]`},
	{"zeroIsUnset", `[{discriminator: type, fields-to-discriminateBy: {a: A, b: B}, exactlyOne: true, zeroIsUnset: [a]}]`},
}

// unionValues are values of the union's node with their validity under
// each of unionKinds, in that order, written by hand from semantics.md
// ("Unions"): T valid, F invalid. An absent, null or "" discriminator
// selects nothing (11.3).
var unionValues = []struct{ value, valid string }{
	{`{}`, "TFTTT"},                                       // nothing set: exactly one without a discriminator fails
	{`{"a": "x"}`, "TTFFF"},                               // a member without its discriminator value
	{`{"a": "x", "b": {}}`, "FFFFF"},                      // two members, {} is set
	{`{"type": "A"}`, "TFTFF"},                            // selected member missing
	{`{"type": "A", "a": "x"}`, "TTTTT"},                  // the selected member
	{`{"type": "B", "a": "x"}`, "TTFFF"},                  // a member not selected
	{`{"type": "C"}`, "TFTTT"},                            // a value selecting nothing: nothing set
	{`{"type": "C", "a": "x"}`, "TTFFF"},                  // a value selecting nothing, a member set
	{`{"a": null}`, "TFTTT"},                              // null is not set
	{`{"a": ""}`, "TTFFT"},                                // "" is set, but where zero is unset
	{`{"b": {}}`, "TTFFF"},                                // {} is set
	{`{"type": "B", "b": {}}`, "TTTTT"},                   // the other selected member
	{`{"type": "A", "a": "x", "b": {"x": "y"}}`, "FFFFF"}, // two members, one selected
	{`{"type": ""}`, "TFTTT"},                             // "" selects nothing, as absent does
	{`{"type": "", "a": "x"}`, "TTFFF"},                   // "" selects nothing: no member may be set
	{`{"type": "A", "a": ""}`, "TTTTF"},                   // the selected member at its zero value
	{`{"type": "B", "a": "", "b": {}}`, "FFFFT"},          // a member at its zero value beside the selected one
}

// unionProps are the properties of every union node of the table.
const unionProps = `properties:
  type: {type: string}
  a: {type: string, nullable: true}
  b: {type: object, properties: {x: {type: string}}}
  other: {type: string}
  name: {type: string}
`

// good is a value valid under every union of the table, for the old
// value of a changed node and for the siblings of a node.
const good = `{"type": "A", "a": "old"}`

// unionPosition places a union node in a schema and its value in an
// object. sibling, when set, is an object in which the node keeps its
// value while s, a string, changes beside it; siblingChecked says whether
// the apiserver then checks the node: not where it is correlated
// (ratcheting), yes where it is an item of an atomic list, whose nearest
// correlated ancestor, the list, changed.
type unionPosition struct {
	name           string
	schema         func(unions string) string
	object         func(value, s string) string
	siblingChecked bool
	noSibling      bool
}

func indent(text, by string) string {
	return by + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n"+by) + "\n"
}

func unionNode(unions, by string) string {
	return indent("type: object\nx-kubernetes-unions: "+unions+"\n"+unionProps, by)
}

func withName(value, name string) string {
	return strings.Replace(value, "{", `{"name": "`+name+`", `, 1)
}

var unionPositions = []unionPosition{
	{name: "root", noSibling: true,
		schema: func(u string) string { return unionNode(u, "") },
		object: func(v, s string) string { return v },
	},
	{name: "nested",
		schema: func(u string) string {
			return "type: object\nproperties:\n  spec:\n    type: object\n    properties:\n      other: {type: string}\n      route:\n" + unionNode(u, "        ")
		},
		object: func(v, s string) string { return `{"spec": {"other": "` + s + `", "route": ` + v + `}}` },
	},
	{name: "listMapItems",
		schema: func(u string) string {
			return "type: object\nproperties:\n  routes:\n    type: array\n    x-kubernetes-list-type: map\n    x-kubernetes-list-map-keys: [name]\n    items:\n" +
				unionNode(u, "      ") + "      required: [name]\n"
		},
		object: func(v, s string) string {
			return `{"routes": [` + withName(v, "x") + `, ` + withName(strings.Replace(good, "{", `{"other": "`+s+`", `, 1), "y") + `]}`
		},
	},
	{name: "atomicListItems", siblingChecked: true,
		schema: func(u string) string {
			return "type: object\nproperties:\n  routes:\n    type: array\n    items:\n" + unionNode(u, "      ")
		},
		object: func(v, s string) string {
			return `{"routes": [` + v + `, ` + strings.Replace(good, "{", `{"other": "`+s+`", `, 1) + `]}`
		},
	},
	{name: "mapValues",
		schema: func(u string) string {
			return "type: object\nproperties:\n  routes:\n    type: object\n    additionalProperties:\n" + unionNode(u, "      ")
		},
		object: func(v, s string) string {
			return `{"routes": {"x": ` + v + `, "y": ` + strings.Replace(good, "{", `{"other": "`+s+`", `, 1) + `}}`
		},
	},
}

// TestUnionVerdicts runs the translated rules of every union, at every
// position, through the apiserver's CEL validator with ratcheting as the
// apiserver applies it on update: on create and on an update that changes
// the node the verdict is the node's validity; an update that leaves the
// node as it was is allowed, unless the node is not correlated and its
// nearest correlated ancestor changed.
func TestUnionVerdicts(t *testing.T) {
	for _, pos := range unionPositions {
		for k, kind := range unionKinds {
			t.Run(pos.name+"/"+kind.name, func(t *testing.T) {
				s := translated(t, pos.schema(kind.yaml), translate.KubeVersion{Major: 1, Minor: 33})
				v := kube.NewRuleValidator(s)
				for _, val := range unionValues {
					valid := val.valid[k] == 'T'
					checkUnion(t, v, s, "create", "", pos.object(val.value, "s1"), valid)
					checkUnion(t, v, s, "update changed", pos.object(good, "s1"), pos.object(val.value, "s1"), valid)
					checkUnion(t, v, s, "update unchanged", pos.object(val.value, "s1"), pos.object(val.value, "s1"), true)
					if !pos.noSibling {
						checkUnion(t, v, s, "update beside", pos.object(val.value, "s1"), pos.object(val.value, "s2"), valid || !pos.siblingChecked)
					}
				}
			})
		}
	}
}

func checkUnion(t *testing.T, v *kube.RuleValidator, s *schema.Structural, what, oldJSON, newJSON string, wantValid bool) {
	t.Helper()
	nw := kube.Store(s, objectOf(t, newJSON))
	var old map[string]interface{}
	if oldJSON != "" {
		var err error
		if old, err = kube.RoundTrip(kube.Store(s, objectOf(t, oldJSON))); err != nil {
			t.Fatal(err)
		}
	}
	list := v.Validate(nw, nil)
	if old != nil {
		list = v.ValidateRatcheting(nw, old)
	}
	errs := ""
	if len(list) > 0 {
		errs = list.ToAggregate().Error()
	}
	if valid := len(list) == 0; valid != wantValid {
		t.Errorf("%s %s -> %s: valid=%v (%v), want valid=%v", what, oldJSON, newJSON, valid, errs, wantValid)
	}
	if failedToEvaluate(errs) {
		t.Errorf("%s %s -> %s: a rule failed to evaluate: %v", what, oldJSON, newJSON, errs)
	}
}

// TestUnionMessages: each violation says which fields, at the field it is
// about, with the reason the semantics give; names the apiserver escapes
// and values with quotes compile and compare.
func TestUnionMessages(t *testing.T) {
	s := translated(t, `type: object
properties:
  spec:
    type: object
    x-kubernetes-unions:
    - discriminator: in
      fields-to-discriminateBy: {namespace: "It's", x-y: Other}
      exactlyOne: true
    - fields-to-discriminateBy: {a: , b: , c: }
    properties:
      in: {type: string}
      namespace: {type: string}
      x-y: {type: string}
      a: {type: string}
      b: {type: string}
      c: {type: string}
`, translate.KubeVersion{Major: 1, Minor: 31})
	v := kube.NewRuleValidator(s)
	for _, c := range []struct{ obj, want string }{
		{`{"spec": {"in": "It's", "namespace": "n"}}`, ``},
		{`{"spec": {"in": "Other", "namespace": "n", "x-y": "v"}}`, `spec.namespace: Forbidden: namespace may be set only when in is It's`},
		{`{"spec": {"in": "Other"}}`, `spec.x-y: Required value: x-y must be set when in is Other`},
		{`{"spec": {"namespace": "n"}}`, `spec.namespace: Forbidden: namespace may be set only when in is It's`},
		{`{"spec": {"in": "It's", "namespace": "n", "a": "", "c": ""}}`, `spec: Forbidden: at most one of a, b, c may be set`},
	} {
		got := ""
		if errs := v.Validate(kube.Store(s, objectOf(t, c.obj)), nil); len(errs) > 0 {
			got = errs.ToAggregate().Error()
		}
		if got != c.want {
			t.Errorf("create %s: %q, want %q", c.obj, got, c.want)
		}
	}
}

// TestUnionRequiredDiscriminator: where the schema keeps the
// discriminator present (required here, defaulted alike), its has() is
// left out, and the verdicts are those of section 11.3.
func TestUnionRequiredDiscriminator(t *testing.T) {
	for _, c := range []struct {
		exactlyOne string
		valid      map[string]bool
	}{
		{"false", map[string]bool{`{"type": "A", "a": "x"}`: true, `{"type": "B", "a": "x"}`: false, `{"type": "A"}`: true, `{"type": "C"}`: true, `{"type": "C", "b": {}}`: false}},
		{"true", map[string]bool{`{"type": "A", "a": "x"}`: true, `{"type": "B", "a": "x"}`: false, `{"type": "A"}`: false, `{"type": "C"}`: true, `{"type": "B", "b": {}}`: true}},
	} {
		s := translated(t, "type: object\nrequired: [type]\nx-kubernetes-unions: [{discriminator: type, fields-to-discriminateBy: {a: A, b: B}, exactlyOne: "+c.exactlyOne+"}]\n"+unionProps, translate.KubeVersion{Major: 1, Minor: 31})
		for _, r := range s.XValidations {
			if strings.Contains(r.Rule, "has(self.type)") {
				t.Errorf("rule %s tests the presence of the required discriminator", r.Rule)
			}
		}
		v := kube.NewRuleValidator(s)
		for obj, valid := range c.valid {
			checkUnion(t, v, s, "create (exactlyOne: "+c.exactlyOne+")", "", obj, valid)
		}
	}
}
