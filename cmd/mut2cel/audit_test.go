package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/driver/costrun"
	"github.com/mut2cel/mut2cel/testkit/corpus"
)

// auditDir holds the declarations of docs/audit.md and the findings
// expected of the published rules (audit.yaml).
const auditDir = "../../testdata/audit"

// auditDoc is the published audit; the tables between its markers are
// written by TestAudit -update and checked by TestAudit.
const auditDoc = "../../docs/audit.md"

// auditPlan is testdata/audit/audit.yaml.
type auditPlan struct {
	Pairs int        `json:"pairs"`
	Seed  int        `json:"seed"`
	CRDs  []auditCRD `json:"crds"`
	// Unions lists the corpus files audited for the unions they write
	// by hand, with declarations files of testdata/audit/unions.
	Unions []auditCRD `json:"unions"`
}

// auditCRD is one audited corpus file.
type auditCRD struct {
	File         string `json:"file"`
	Declarations string `json:"declarations"`
	// Pairs, when set, replaces the plan's pairs: a finding that the
	// generator reaches seldom needs more.
	Pairs int `json:"pairs,omitempty"`
	// Published lists, per served version, the findings of verify
	// --against the published CRD; an empty list means exact.
	Published map[string][]string `json:"published"`
}

// TestAudit re-runs the audit of docs/audit.md on the corpus as a user
// would: for every CRD of testdata/audit/audit.yaml, verify --against the
// published CRD must report exactly the expected findings, mut2cel's
// translation with the same declarations must verify clean, hand-written
// rules included, and the tables of docs/audit.md must be what these
// runs and mut2cel cost give (go test -update rewrites them). The
// mutability declarations (crds) and the unions (unions) are audited
// alike, each into sections of its own. -short audits a sample and leaves
// the tables alone.
func TestAudit(t *testing.T) {
	dir := corpus.Dir(t)
	plan := readAuditPlan(t)
	runAll := func(name string, crds []auditCRD, kind auditKind, short int) []auditResult {
		crds = corpus.Sample(crds, short)
		results := make([]auditResult, len(crds))
		t.Run(name, func(t *testing.T) {
			for i, c := range crds {
				t.Run(filepath.Base(c.File), func(t *testing.T) {
					results[i] = auditOne(t, plan, c, filepath.Join(dir, c.File), kind)
				})
			}
		})
		return results
	}
	mutability := runAll("mutability", plan.CRDs, mutabilityAudit, 3)
	unions := runAll("unions", plan.Unions, unionAudit, 1)
	if t.Failed() || !corpus.Whole() {
		// The tables of docs/audit.md are those of every audited CRD.
		return
	}
	checkAuditDoc(t, plan, mutability, unions)
}

// auditKind is what differs between the audit of mutability declarations
// and that of unions: which published rules stand for the declarations,
// and how the sections of docs/audit.md name them and their anchors.
type auditKind struct {
	// covers selects the published rules that stand for the declared
	// paths.
	covers func(rule costRule, declared []string) bool
	// rules names those rules in the details.
	rules string
	// anchor prefixes the heading ids of the details.
	anchor string
}

var (
	mutabilityAudit = auditKind{covers: covers, rules: "Published transition rules that stand for these declarations"}
	unionAudit      = auditKind{covers: coversUnion, rules: "Published rules that stand for these unions", anchor: "unions-"}
)

func readAuditPlan(t *testing.T) auditPlan {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(auditDir, "audit.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var plan auditPlan
	if err := yaml.UnmarshalStrict(data, &plan); err != nil {
		t.Fatalf("testdata/audit/audit.yaml: %v", err)
	}
	return plan
}

// auditResult is what the runs on one corpus file gave.
type auditResult struct {
	crd       auditCRD
	kind      auditKind
	published verifyReport
	own       verifyReport
	// publishedCost and generatedCost are the transition rules of the
	// published CRD and the rules mut2cel generates, per version.
	publishedCost, generatedCost map[string][]costRule
}

func auditOne(t *testing.T, plan auditPlan, c auditCRD, path string, kind auditKind) auditResult {
	decls := filepath.Join(auditDir, c.Declarations)
	pairs := plan.Pairs
	if c.Pairs > 0 {
		pairs = c.Pairs
	}
	common := []string{"verify", "-q", "-o", "json", "--pairs", strconv.Itoa(pairs), "--seed", strconv.Itoa(plan.Seed),
		"--counterexamples", "50", "--declarations", decls}
	r := auditResult{crd: c, kind: kind}

	code, out, errOut := runCLI(slices.Concat(common, []string{"--against", path, path})...)
	r.published = decodeVerify(t, "verify --against", code, out, errOut)
	checkPublished(t, c, code, r.published)

	// mut2cel verify --declarations checks the translation it makes.
	code, out, errOut = runCLI(slices.Concat(common, []string{path})...)
	r.own = decodeVerify(t, "verify", code, out, errOut)
	checkOwn(t, c, code, r.own)

	code, translated, errOut := runCLI("translate", "--declarations", decls, path)
	if code != exitOK {
		t.Fatalf("translate: exit %d: %s", code, errOut)
	}
	file := filepath.Join(t.TempDir(), "translated.yaml")
	if err := os.WriteFile(file, []byte(translated), 0o644); err != nil {
		t.Fatal(err)
	}
	r.publishedCost = costOf(t, path, func(version string, rule costRule) bool {
		return !rule.Generated && kind.covers(rule, r.published.declared(version))
	})
	r.generatedCost = costOf(t, file, func(_ string, rule costRule) bool { return rule.Generated })
	return r
}

// covers reports whether a published rule stands for one of the declared
// paths: a transition rule at the path, or above it that compares the
// whole object (self == oldSelf) or names the declared field.
func covers(rule costRule, declared []string) bool {
	if !strings.Contains(rule.Rule, "oldSelf") {
		return false
	}
	at := shortPath(rule.Path)
	for _, d := range declared {
		if d == at {
			return true
		}
		prefix := strings.TrimSuffix(at, ".") + "."
		if at == "." {
			prefix = "."
		}
		if !strings.HasPrefix(d, prefix) {
			continue
		}
		field := d[strings.LastIndex(d, ".")+1:]
		if strings.TrimSpace(rule.Rule) == "self == oldSelf" || namesField(rule.Rule, field) {
			return true
		}
	}
	return false
}

// coversUnion reports whether a published rule stands for a union: a
// rule on the union's node that does not read oldSelf. Every such rule
// of the audited CRDs is about the union; a rule above the node would
// have to be read to tell.
func coversUnion(rule costRule, declared []string) bool {
	if strings.Contains(rule.Rule, "oldSelf") {
		return false
	}
	return slices.Contains(declared, shortPath(rule.Path))
}

// namesField reports whether a rule names a field, escaped or not
// (__namespace__ is how CEL spells namespace).
func namesField(rule, field string) bool {
	return regexp.MustCompile(`(^|[^A-Za-z0-9_])(__)?` + regexp.QuoteMeta(field) + `(__)?($|[^A-Za-z0-9_])`).MatchString(rule)
}

// verifyReport is the part of verify's -o json document the audit reads
// (docs/verify.md).
type verifyReport struct {
	CRDs []struct {
		CRD      string `json:"crd"`
		Versions []struct {
			Version       string `json:"version"`
			Pairs         int    `json:"pairs"`
			Disagreements int    `json:"disagreements"`
			Causes        []struct {
				Kind  string `json:"kind"`
				Rules []struct {
					Path, Rule string
				} `json:"rules"`
				Violated []struct {
					Path, Extension, Value, Kind string
				} `json:"violated"`
				Disagreements  int `json:"disagreements"`
				Counterexample *struct {
					// Kept as written, so that an integral float
					// stays 1.0 (docs/verify.md).
					Old json.RawMessage `json:"old"`
					New json.RawMessage `json:"new"`
				} `json:"counterexample"`
			} `json:"causes"`
			Declarations []struct {
				Path, Extension, Value string
			} `json:"declarations"`
		} `json:"versions"`
	} `json:"crds"`
}

func decodeVerify(t *testing.T, what string, code int, out, errOut string) verifyReport {
	t.Helper()
	var r verifyReport
	if code == exitError {
		t.Fatalf("%s: exit %d: %s", what, code, errOut)
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, errOut)
	}
	if len(r.CRDs) != 1 {
		t.Fatalf("%s: %d CRDs verified, want 1", what, len(r.CRDs))
	}
	return r
}

// declared lists the declared paths of a version.
func (r verifyReport) declared(version string) []string {
	var out []string
	for _, v := range r.CRDs[0].Versions {
		if v.Version == version {
			for _, d := range v.Declarations {
				out = append(out, shortPath(d.Path))
			}
		}
	}
	return out
}

// findings lists, per version, the distinct findings of a run in the
// notation of audit.yaml, sorted.
func (r verifyReport) findings() map[string][]string {
	out := map[string][]string{}
	for _, v := range r.CRDs[0].Versions {
		seen := map[string]bool{}
		for _, c := range v.Causes {
			for _, f := range causeFindings(c.Kind, c.Violated, c.Rules) {
				seen[f] = true
			}
		}
		fs := []string{}
		for f := range seen {
			fs = append(fs, f)
		}
		slices.Sort(fs)
		out[v.Version] = fs
	}
	return out
}

func causeFindings(kind string, violated []struct{ Path, Extension, Value, Kind string }, rules []struct{ Path, Rule string }) []string {
	var out []string
	for _, d := range violated {
		out = append(out, d.Kind+" "+shortPath(d.Path)+" "+d.Value)
	}
	if kind != "missed" {
		for _, r := range rules {
			out = append(out, kind+" "+shortPath(r.Path)+": "+r.Rule)
		}
	}
	return out
}

func checkPublished(t *testing.T, c auditCRD, code int, r verifyReport) {
	t.Helper()
	got := r.findings()
	if len(got) != len(c.Published) {
		t.Errorf("verify --against: versions %v, want those of audit.yaml %v", slices.Sorted(mapKeys(got)), slices.Sorted(mapKeys(c.Published)))
	}
	found := false
	for version, want := range c.Published {
		fs := got[version]
		found = found || len(fs) > 0
		if !slices.Equal(fs, slices.Sorted(slices.Values(want))) {
			t.Errorf("verify --against, %s: findings\n  %s\nwant (audit.yaml)\n  %s", version, strings.Join(fs, "\n  "), strings.Join(want, "\n  "))
		}
	}
	if found != (code == exitFinding) {
		t.Errorf("verify --against: exit %d with findings %v", code, got)
	}
}

// checkOwn requires mut2cel's translation to verify clean: no
// disagreement in any version.
func checkOwn(t *testing.T, c auditCRD, code int, r verifyReport) {
	t.Helper()
	for version, fs := range r.findings() {
		if len(fs) > 0 {
			t.Errorf("verify of mut2cel's translation, %s: findings\n  %s\nwant none", version, strings.Join(fs, "\n  "))
		}
	}
	if code != exitOK {
		t.Errorf("verify of mut2cel's translation: exit %d, want %d", code, exitOK)
	}
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// costRule is one rule of mut2cel cost -o json (docs/cost.md).
type costRule = costrun.Rule

// costOf returns, per version of the CRD in file, the rules keep selects,
// as mut2cel cost reports them, sorted by path.
func costOf(t *testing.T, file string, keep func(version string, r costRule) bool) map[string][]costRule {
	t.Helper()
	code, out, errOut := runCLI("cost", "--all", "-o", "json", file)
	if code != exitOK {
		t.Fatalf("cost %s: exit %d: %s", file, code, errOut)
	}
	var report costrun.Report
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("cost %s: %v", file, err)
	}
	res := map[string][]costRule{}
	for _, v := range report.CRDs[0].Versions {
		rules := []costRule{}
		for _, r := range v.Rules {
			if keep(v.Name, r) {
				rules = append(rules, r)
			}
		}
		slices.SortStableFunc(rules, func(a, b costRule) int { return strings.Compare(a.Path, b.Path) })
		res[v.Name] = rules
	}
	return res
}

var (
	propertyStep = regexp.MustCompile(`\.properties\[([^\]]+)\]`)
	ruleSuffix   = regexp.MustCompile(`\.x-kubernetes-validations\[\d+\]\.(rule|messageExpression)$`)
)

// shortPath writes a schema path of cost's JSON
// (openAPIV3Schema.properties[spec].items...) in the notation of
// declarations files (.spec[*]...), which verify's paths are in already.
func shortPath(p string) string {
	p = ruleSuffix.ReplaceAllString(p, "")
	p = strings.TrimPrefix(p, "openAPIV3Schema")
	p = propertyStep.ReplaceAllString(p, ".$1")
	p = strings.ReplaceAll(p, ".items", "[*]")
	p = strings.ReplaceAll(p, ".additionalProperties", "[*]")
	if p == "" {
		return "."
	}
	return p
}
