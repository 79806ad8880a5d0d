package verify_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
	"github.com/mut2cel/mut2cel/verify/declread"
)

// teethPairs is the number of pairs per version with which a CRD missing
// one generated rule must be found out.
const teethPairs = 600

// TestTeethExamples removes each rule mut2cel generates for a shipped
// example, one at a time, and requires verify to find a disagreement in
// that rule's version: a rule verify cannot miss is a rule verify checks.
func TestTeethExamples(t *testing.T) {
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			checkTeeth(t, testcrd.ReadFile(t, f), translate.Options{})
		})
	}
}

// TestTeethAudit does the same for every CRD of the audit
// (testdata/audit/audit.yaml) with its declarations.
func TestTeethAudit(t *testing.T) {
	if testing.Short() {
		t.Skip("the audit CRDs are large")
	}
	dir := corpus.Dir(t)
	var plan struct {
		CRDs []struct {
			File         string `json:"file"`
			Declarations string `json:"declarations"`
		} `json:"crds"`
	}
	data, err := os.ReadFile("../testdata/audit/audit.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &plan); err != nil {
		t.Fatal(err)
	}
	crds := corpus.CRDs(t)
	for _, c := range plan.CRDs {
		t.Run(filepath.Base(c.File), func(t *testing.T) {
			name := filepath.Join("../testdata/audit", c.Declarations)
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			sets, err := decl.ParseFile(name, data)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, crd := range crds {
				if crd.File == filepath.Join(dir, c.File) {
					found = true
					checkTeeth(t, crd.Doc, translate.Options{Declarations: sets})
				}
			}
			if !found {
				t.Fatalf("%s is not in the corpus", c.File)
			}
		})
	}
}

// checkTeeth translates doc, its own rules taken away so that only
// generated rules enforce the declarations, checks that verify passes
// the translation, and that it fails it with any one rule removed.
func checkTeeth(t *testing.T, doc map[string]interface{}, opts translate.Options) {
	t.Helper()
	bare := withoutRules(doc)
	res, err := translate.Translate(bare, opts)
	if err != nil {
		t.Fatal(err)
	}
	declared, err := declread.CRD(bare, opts.Declarations, opts.AllServedVersions)
	if err != nil {
		t.Fatal(err)
	}
	vopts := verify.Options{Pairs: teethPairs, Seed: 1, Workers: 2, Counterexamples: -1}
	rep, err := verify.Verify(declared, res.Translated, vopts)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range rep.Versions {
		if v.Disagreements > 0 || len(v.Unexercised()) > 0 || len(v.Untested()) > 0 {
			t.Fatalf("version %s of the translation: %d disagreements, unexercised %v, untested %v", v.Version, v.Disagreements, v.Unexercised(), v.Untested())
		}
	}
	sites := ruleSites(res.Translated)
	if len(sites) == 0 {
		t.Fatal("the translation has no rule")
	}
	// Under -short, one rule is removed; each of them in the full run.
	for _, s := range corpus.Sample(sites, 1) {
		cut := withoutRules(res.Translated) // a copy
		restoreAllBut(cut, res.Translated, s)
		// The same pairs of the rule's version, up to the batch that
		// finds it out.
		cutOpts := vopts
		cutOpts.Versions, cutOpts.StopAtDisagreement = []string{s.version}, true
		var rep *verify.Report
		var err error
		verify.WithoutShortcutChecks(func() { rep, err = verify.Verify(declared, cut, cutOpts) })
		if err != nil {
			t.Fatalf("without %s: %v", s, err)
		}
		caught := false
		for _, v := range rep.Versions {
			if v.Version == s.version && v.Disagreements > 0 && rep.Failed() {
				caught = true
			}
		}
		if !caught {
			t.Errorf("verify passes the translation without %s", s)
		}
	}
}

// ruleSite is one rule of a decoded CRD: its version, the path of its
// node from the version's openAPIV3Schema, and its place in the list.
type ruleSite struct {
	version string
	vi      int
	path    []string
	index   int
	rule    string
}

func (s ruleSite) String() string {
	return fmt.Sprintf("rule %d of %s /%s (%q)", s.index, s.version, strings.Join(s.path, "/"), s.rule)
}

func ruleSites(doc map[string]interface{}) []ruleSite {
	var out []ruleSite
	versions, _ := doc["spec"].(map[string]interface{})["versions"].([]interface{})
	for vi, v := range versions {
		m := v.(map[string]interface{})
		name, _ := m["name"].(string)
		s, _ := m["schema"].(map[string]interface{})
		root, _ := s["openAPIV3Schema"].(map[string]interface{})
		var walk func(node map[string]interface{}, path []string)
		walk = func(node map[string]interface{}, path []string) {
			rules, _ := node["x-kubernetes-validations"].([]interface{})
			for i, r := range rules {
				text, _ := r.(map[string]interface{})["rule"].(string)
				out = append(out, ruleSite{name, vi, path, i, text})
			}
			for _, key := range []string{"properties", "items", "additionalProperties"} {
				switch sub := node[key].(type) {
				case map[string]interface{}:
					if key != "properties" {
						walk(sub, append(append([]string{}, path...), key))
						continue
					}
					for _, p := range sortedNames(sub) {
						if c, ok := sub[p].(map[string]interface{}); ok {
							walk(c, append(append([]string{}, path...), "properties", p))
						}
					}
				}
			}
		}
		walk(root, nil)
	}
	return out
}

// restoreAllBut puts back into cut, a copy of full without rules, every
// rule of full but the one at s.
func restoreAllBut(cut, full map[string]interface{}, s ruleSite) {
	for _, site := range ruleSites(full) {
		if site.vi == s.vi && site.index == s.index && strings.Join(site.path, "/") == strings.Join(s.path, "/") {
			continue
		}
		node := schemaNode(cut, site.vi, site.path)
		rule := schemaNode(full, site.vi, site.path)["x-kubernetes-validations"].([]interface{})[site.index]
		list, _ := node["x-kubernetes-validations"].([]interface{})
		node["x-kubernetes-validations"] = append(list, rule)
	}
}

func schemaNode(doc map[string]interface{}, vi int, path []string) map[string]interface{} {
	v := doc["spec"].(map[string]interface{})["versions"].([]interface{})[vi].(map[string]interface{})
	node := v["schema"].(map[string]interface{})["openAPIV3Schema"].(map[string]interface{})
	for _, p := range path {
		node = node[p].(map[string]interface{})
	}
	return node
}

func sortedNames(m map[string]interface{}) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
