package translate_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/translate"
)

// TestPlanIsWhatTranslateWrites checks, for every shipped example and a
// CRD whose rules need a bound, that Translate's plan is the one Compile
// returns, and that the CRD rules its checks are written as hold exactly
// what Translate writes into the CRD: each rule the translation adds, at
// its host, with its text, message, reason and fieldPath, and each bound
// it sets. The translation is read as a document, apart from the plan,
// so that a back end reading the plan alone would write the same rules;
// every rule also says what it stands for and what it costs.
func TestPlanIsWhatTranslateWrites(t *testing.T) {
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]interface{}
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		checkPlan(t, file, doc)
	}
	bounded := checkPlan(t, "an unbounded set", crdWith(t, `
type: object
properties:
  spec:
    type: object
    properties:
      tags:
        type: array
        x-kubernetes-list-type: set
        x-kubernetes-key-mutability: AddOnly
        items: {type: string}
`))
	if len(bounded) == 0 {
		t.Errorf("Compile(an unbounded set) plans no bound; want maxItems on .spec.tags")
	}
}

// checkPlan compares the plan of doc with its translation, and returns
// the bounds planned.
func checkPlan(t *testing.T, name string, doc map[string]interface{}) []string {
	t.Helper()
	p, err := translate.Compile(doc, translate.Options{})
	if err != nil {
		t.Fatalf("Compile(%s): %v", name, err)
	}
	res, err := translate.Translate(doc, translate.Options{})
	if err != nil {
		t.Fatalf("Translate(%s): %v", name, err)
	}
	var planned, bounds []string
	for _, v := range p.Versions {
		if len(v.Rules) > 0 && res.Rules[v.Name] == nil {
			t.Errorf("Translate(%s): version %s has checks and no rules", name, v.Name)
			continue
		}
		for _, r := range res.Rules[v.Name].Rules {
			planned = append(planned, ruleLine(v.Name, r.Host, r.Rule))
			if len(r.Origin) == 0 || r.Cost == nil {
				t.Errorf("Translate(%s): version %s, rule on %s %q has origin %v and cost %v; want both", name, v.Name, r.Host, r.Rule.Rule, r.Origin, r.Cost)
			}
		}
		if vr := res.Rules[v.Name]; vr != nil {
			for _, b := range vr.Bounds {
				bounds = append(bounds, fmt.Sprintf("%s %s", v.Name, b))
			}
		}
	}
	written, writtenBounds := addedBy(t, doc, res.Translated)
	sort.Strings(planned)
	sort.Strings(bounds)
	if !reflect.DeepEqual(planned, written) || len(planned) == 0 {
		t.Errorf("Compile(%s) plans the rules\n%q\nTranslate writes\n%q", name, planned, written)
	}
	if !reflect.DeepEqual(bounds, writtenBounds) {
		t.Errorf("Compile(%s) plans the bounds %q, Translate writes %q", name, bounds, writtenBounds)
	}
	if !reflect.DeepEqual(res.Plan, p) {
		t.Errorf("Translate(%s).Plan differs from Compile's", name)
	}
	return bounds
}

func ruleLine(version string, host decl.Path, r edit.Rule) string {
	return fmt.Sprintf("%s %s %+v", version, host, r)
}

// addedBy lists, sorted, the rules and the bounds that out has and in
// has not, node by node of every version schema.
func addedBy(t *testing.T, in, out map[string]interface{}) (rules, bounds []string) {
	t.Helper()
	before, err := crd.Read(in)
	if err != nil {
		t.Fatal(err)
	}
	after, err := crd.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range after.Versions {
		walkRaw(v.Raw, nil, func(p decl.Path, node map[string]interface{}) {
			var old map[string]interface{}
			if rel, ok := p.Resolve(before.Versions[i].Raw); ok {
				old = rawAt(before.Versions[i].Raw, rel)
			}
			had := map[edit.Rule]bool{}
			list, _ := old[edit.ValidationsKey].([]interface{})
			for _, e := range list {
				if r, ok := edit.RuleOf(e); ok {
					had[r] = true
				}
			}
			list, _ = node[edit.ValidationsKey].([]interface{})
			for _, e := range list {
				if r, ok := edit.RuleOf(e); ok && !had[r] {
					rules = append(rules, ruleLine(v.Name, p, r))
				}
			}
			for _, kw := range []string{"maxLength", "maxItems", "maxProperties"} {
				if value, ok := node[kw]; ok && !reflect.DeepEqual(old[kw], value) {
					bounds = append(bounds, fmt.Sprintf("%s %s: %s: %v", v.Name, p, kw, value))
				}
			}
		})
	}
	sort.Strings(rules)
	sort.Strings(bounds)
	return rules, bounds
}

// walkRaw calls f on every node of a decoded schema with its path.
func walkRaw(node map[string]interface{}, at decl.Path, f func(decl.Path, map[string]interface{})) {
	f(at, node)
	props, _ := node["properties"].(map[string]interface{})
	for name, c := range props {
		if m, ok := c.(map[string]interface{}); ok {
			walkRaw(m, at.Child(decl.Step{Name: name}), f)
		}
	}
	for _, key := range []string{"items", "additionalProperties"} {
		if m, ok := node[key].(map[string]interface{}); ok {
			walkRaw(m, at.Child(decl.Step{Entries: true}), f)
		}
	}
}

// rawAt follows a schema-relative document path.
func rawAt(node map[string]interface{}, rel []interface{}) map[string]interface{} {
	for _, step := range rel {
		node, _ = node[step.(string)].(map[string]interface{})
	}
	return node
}
