package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/mut2cel/mut2cel/driver/costrun"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/testkit/golden"
)

func TestCost(t *testing.T) {
	for _, c := range []struct {
		name   string
		args   []string
		code   int
		golden string // stdout, under testdata/cost
		stderr string
	}{
		// The declarations file among the examples is not a CRD: noted.
		{"examples text", []string{"cost", "--all", "../../examples"}, 0, "examples.txt", examplesNote},
		{"examples json 1.33", []string{"cost", "--all", "-o", "json", "--kube-version", "1.33", "../../examples"}, 0, "examples-1.33.json", examplesNote},
		// Without --all, the CRDs that declare nothing are left out, and
		// counted.
		{"examples declared", []string{"cost", "../../examples"}, 0, "examples-declared.txt", examplesNote + examplesUndeclared},
		// A file that declares nothing is an error, as for translate,
		// unless every CRD is asked for.
		{"nothing declared", []string{"cost", "testdata/cost/handwritten.yaml"}, 2, "",
			"no declarations in testdata/cost/handwritten.yaml: declare some in the CRD schemas"},
		{"bounds added", []string{"cost", "--output", "json", "testdata/cost/needs-bounds.yaml"}, 0, "needs-bounds.json", ""},
		{"declared, own rules over the limits", []string{"cost", "testdata/cost/declared-over-limit.yaml"}, 1, "declared-over-limit.txt", ""},
		// A file translate wrote: its rules are still marked generated.
		{"translated before", []string{"cost", "testdata/cost/needs-bounds.out.yaml"}, 0, "needs-bounds.out.txt", ""},
		{"over the limits text", []string{"cost", "--all", "testdata/cost/handwritten.yaml"}, 1, "handwritten.txt", ""},
		{"over the limits json", []string{"cost", "--all", "--format=json", "testdata/cost/handwritten.yaml"}, 1, "handwritten.json", ""},
		{"bad format", []string{"cost", "-o", "xml"}, 2, "", "mut2cel cost: -o must be text or json, not \"xml\"\n"},
		// --format, the flag's first name, still works.
		{"old flag name", []string{"cost", "--all", "--format", "json", "testdata/cost/handwritten.yaml"}, 1, "handwritten.json", ""},
		{"v1beta1", []string{"cost", "testdata/bad-crd.yaml"}, 2, "", "testdata/bad-crd.yaml:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(c.args, strings.NewReader(""), &stdout, &stderr)
			if code != c.code {
				t.Errorf("mut2cel %s: exit %d, want %d; stderr:\n%s", strings.Join(c.args, " "), code, c.code, stderr.String())
			}
			if c.golden != "" {
				golden.Check(t, filepath.Join("testdata", "cost", c.golden), stdout.Bytes())
			}
			if !strings.HasPrefix(stderr.String(), c.stderr) || (c.stderr == "" && stderr.Len() > 0) || (c.code == exitOK && stderr.String() != c.stderr) {
				t.Errorf("stderr = %q, want it to start with %q", stderr.String(), c.stderr)
			}
		})
	}
}

const examplesUndeclared = "mut2cel cost: 1 CRD without declarations not reported (--all reports them)\n"

const examplesNote = "../../examples/declarations/documented.yaml: 3 documents are not CustomResourceDefinitions (kind: Declarations)\n" +
	"../../examples/policy/deployments.policy.yaml: 2 documents are not CustomResourceDefinitions (kinds: ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding)\n" +
	"../../examples/policy/deployments.yaml: 1 document is not a CustomResourceDefinition (kind: Declarations)\n" +
	"../../examples/policy/ports.policy.yaml: 2 documents are not CustomResourceDefinitions (kinds: ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding)\n"

// TestCostCorpusTotals runs `mut2cel cost -o json` on the real-world
// corpus in the CEL environment of this module's apiserver (1.37 compiles
// new rules as 1.36) and checks every version total against the
// apiserver's ValidateCustomResourceDefinition. -short costs a sample of
// the files.
func TestCostCorpusTotals(t *testing.T) {
	files := corpus.Sample(corpus.Files(t), 15)
	var crds []corpus.Document
	for _, c := range corpus.CRDs(t) {
		if slices.Contains(files, c.File) {
			crds = append(crds, c)
		}
	}
	args := append([]string{"cost", "--all", "-o", "json", "--kube-version", "1.37"}, files...)
	if corpus.Whole() {
		args = append(args[:6], corpus.Dir(t)) // as a user runs it
	}
	var stdout, stderr bytes.Buffer
	if code := run(args, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var report costrun.Report
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatal(err)
	}
	if len(report.CRDs) != len(crds) {
		t.Fatalf("the report has %d CRDs, the corpus %d", len(report.CRDs), len(crds))
	}
	versions := 0
	for i, c := range crds {
		r := report.CRDs[i]
		if r.Name != c.Name || r.Document != c.Index+1 {
			t.Fatalf("report entry %d is %s document %d, want %s document %d", i, r.Name, r.Document, c.Name, c.Index+1)
		}
		crd := &apiextensionsv1.CustomResourceDefinition{}
		data, _ := json.Marshal(c.Doc)
		if err := json.Unmarshal(data, crd); err != nil {
			t.Fatal(err)
		}
		totals := map[int]uint64{}
		for _, v := range r.Versions {
			for j, cv := range crd.Spec.Versions {
				if cv.Name == v.Name {
					totals[j] = v.TotalCost
				}
			}
		}
		if err := corpus.CheckTotals(crd, totals); err != nil {
			t.Errorf("%s (%s): %v", c.File, c.Name, err)
		}
		versions += len(totals)
	}
	t.Logf("%d CRDs, %d versions: every total equals the apiserver's", len(crds), versions)
}

// TestTranslateBounds runs translate with the real translator on a CRD whose
// generated rules need bounds.
func TestTranslateBounds(t *testing.T) {
	const input = "testdata/cost/needs-bounds.yaml"
	const summary = input + ":16: document 1 (CustomResourceDefinition/widgets.example.com): version v1: added 1 bound (maxItems 2000 on 1 list) " +
		"so that the generated rules pass the CEL cost limits; larger values are now rejected (-v lists them; docs/cost.md)\n"
	const reach = input + ":16: document 1 (CustomResourceDefinition/widgets.example.com): version v1: warning: on the largest objects the schema allows, " +
		"the generated rules would cost more than the runtime limits (worst case 4010002 per call, 6369318 per object)\n" +
		"  they stay within them while lists and maps hold at most 500 entries; beyond, the apiserver may cancel them and reject the update (docs/cost.md)\n"
	for _, c := range []struct {
		name   string
		args   []string
		code   int
		golden string
		stderr string
	}{
		{"bounds chosen", []string{"translate", input}, 0, "needs-bounds.out.yaml", summary + reach},
		{"every bound", []string{"translate", "-v", input}, 0, "needs-bounds.out.yaml", summary + reach +
			input + ":22: document 1 (CustomResourceDefinition/widgets.example.com): version v1 .spec.finalizers: added maxItems: 2000\n"},
		// labels needs no bound: its rule is under the static limits.
		{"explicit values", []string{"translate", "--max-items=64", "--max-properties=128", input}, 0, "needs-bounds-explicit.out.yaml",
			input + ":16: document 1 (CustomResourceDefinition/widgets.example.com): version v1: added 1 bound (maxItems 64 on 1 list) so that the generated rules pass the CEL cost limits; larger values are now rejected (-v lists them; docs/cost.md)\n" +
				input + ":16: document 1 (CustomResourceDefinition/widgets.example.com): version v1: warning: on the largest objects the schema allows, the generated rules would cost more than the runtime limits (worst case 2359292 per call, 2363734 per object)\n" +
				"  they stay within them while lists and maps hold at most 100000 entries; beyond, the apiserver may cancel them and reject the update (docs/cost.md)\n"},
		// Only the per-object budget is crossed: no rule has a per-call
		// figure over its limit to report (it once said "0 per call").
		{"per object only", []string{"translate", "testdata/cost/per-object.yaml"}, 0, "per-object.out.yaml",
			"testdata/cost/per-object.yaml:17: document 1 (CustomResourceDefinition/pools.example.com): version v1: warning: on the largest objects the schema allows, " +
				"the generated rules would cost more than the runtime limits (worst case 16814400 per object; no rule alone is over the per-call limit)\n" +
				"  they stay within them while lists and maps hold at most 200 entries; beyond, the apiserver may cancel them and reject the update (docs/cost.md)\n"},
		// A refusal is a problem of the input as given, not a finding: exit 2.
		{"floors", []string{"translate", "--bound-floor", "maxItems=5000", "--bound-floor", ".spec.labels:maxProperties=5000", input}, 2, "",
			input + ":25: document 1 (CustomResourceDefinition/widgets.example.com): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[finalizers].x-kubernetes-key-mutability: " +
				"Forbidden:\n  the generated rules do not fit the apiserver's CEL cost limits, even with the bounds mut2cel may add at their floors\n" +
				"  declaration: x-kubernetes-key-mutability: AddOnly on .spec.finalizers\n" +
				"  rule on .spec.finalizers costs 25025002, over the per-expression limit 10000000\n" +
				"  most of its cost comes from .spec.finalizers (maxItems 5000)\n" +
				"  to fix: declare a smaller part of the schema, or give these nodes smaller bounds: in the schema, as maxItems, maxLength or maxProperties of the field in a declarations file, or as a run-wide floor (--bound-floor PATH:KEYWORD=N)\n"},
		{"bad floor", []string{"translate", "--bound-floor", "maxWidth=5", input}, 2, "",
			"mut2cel translate: --bound-floor: \"maxWidth=5\": the keyword must be maxLength, maxItems or maxProperties\nUsage: mut2cel translate [flags] [PATH...]\n"},
		// A path that names no node would set no floor, silently.
		{"unknown floor path", []string{"translate", "--bound-floor", ".spec.finalizer:maxItems=100", "--bound-floor", ".spec.x:maxLength=9", input}, 2, "",
			summary + reach + "--bound-floor .spec.finalizer:maxItems=100: no CRD given has a schema node at .spec.finalizer (did you mean .spec.finalizers?)\n" +
				"--bound-floor .spec.x:maxLength=9: no CRD given has a schema node at .spec.x\n"},
		{"bad floor path", []string{"translate", "--bound-floor", ".spec[:maxItems=4", input}, 2, "",
			"mut2cel translate: --bound-floor: \".spec[:maxItems=4\": path \".spec[\": expected .name, [\"name\"] or [*] at \"[\"\nUsage: mut2cel translate [flags] [PATH...]\n"},
		{"no bounds", []string{"translate", "--no-bounds", input}, 2, "",
			input + ":22: document 1 (CustomResourceDefinition/widgets.example.com): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[finalizers]: " +
				"Required value: the generated rules need maxItems: 2000 (or smaller) here to pass the CEL cost limits;\n  add it, or let mut2cel add it by omitting --no-bounds\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(c.args, nil, &stdout, &stderr); code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, stderr.String())
			}
			if c.golden != "" {
				golden.Check(t, filepath.Join("testdata", "cost", c.golden), stdout.Bytes())
			} else if stdout.Len() > 0 {
				t.Errorf("stdout = %q, want nothing", stdout.String())
			}
			got := stderr.String()
			if strings.Contains(c.stderr, "\nUsage: ") { // the usage that follows is tested elsewhere
				got = got[:min(len(got), len(c.stderr))]
			}
			if got != c.stderr {
				t.Errorf("stderr =\n%s\nwant\n%s", stderr.String(), c.stderr)
			}
		})
	}
}

// TestCostFitsWidth runs cost on corpus CRDs with the longest schema paths
// and rules: every line of the text report fits in costrun.Width columns.
func TestCostFitsWidth(t *testing.T) {
	dir := corpus.Dir(t)
	for _, file := range []string{"kueue/kueue.x-k8s.io_workloads.yaml", "cert-manager/acme.cert-manager.io_challenges.yaml", "jobset/jobset.x-k8s.io_jobsets.yaml"} {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"cost", "--all", filepath.Join(dir, file)}, strings.NewReader(""), &stdout, &stderr); code > 1 {
			t.Fatalf("mut2cel cost %s: exit %d: %s", file, code, stderr.String())
		}
		for i, line := range strings.Split(stdout.String(), "\n") {
			if n := len([]rune(line)); n > costrun.Width {
				t.Errorf("%s: line %d has %d columns, want at most %d:\n%s", file, i+1, n, costrun.Width, line)
			}
		}
	}
}
