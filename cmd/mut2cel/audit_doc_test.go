package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/golden"
)

// renderDetails writes, per audited file and version, the declarations,
// the published transition rules, what verify found with a shrunk
// counterexample for each finding, and the rules mut2cel generates. A
// version that reads exactly as the one before it says so instead.
func renderDetails(results []auditResult) string {
	var b strings.Builder
	for _, r := range results {
		fmt.Fprintf(&b, "### <a id=\"%s\"></a>%s\n\n", anchor(r), r.published.CRDs[0].CRD)
		fmt.Fprintf(&b, "`%s`, declared in [testdata/audit/%s](../testdata/audit/%s).\n\n", r.crd.File, r.crd.Declarations, r.crd.Declarations)
		prev, prevName := "", ""
		for _, v := range r.published.CRDs[0].Versions {
			body := renderVersion(r, v.Version)
			fmt.Fprintf(&b, "#### %s\n\n", v.Version)
			if body == prev {
				fmt.Fprintf(&b, "As %s.\n\n", prevName)
				continue
			}
			b.WriteString(body)
			prev, prevName = body, v.Version
		}
	}
	return b.String()
}

func renderVersion(r auditResult, version string) string {
	var b strings.Builder
	for _, v := range r.published.CRDs[0].Versions {
		if v.Version != version {
			continue
		}
		var paths []string
		values := map[string][]string{}
		for _, d := range v.Declarations {
			p := shortPath(d.Path)
			if values[p] == nil {
				paths = append(paths, p)
			}
			values[p] = append(values[p], d.Value)
		}
		for i, p := range paths {
			paths[i] = fmt.Sprintf("`%s` %s", p, strings.Join(values[p], ", "))
		}
		fmt.Fprintf(&b, "Declared: %s.\n\n", strings.Join(paths, "; "))
	}
	b.WriteString(r.kind.rules + ":\n\n")
	writeRules(&b, r.publishedCost[version])
	b.WriteString(findingsText(r, version))
	b.WriteString("Rules mut2cel adds (its translation keeps the published rules):\n\n")
	writeRules(&b, r.generatedCost[version])
	return b.String()
}

func writeRules(b *strings.Builder, rules []costRule) {
	if len(rules) == 0 {
		b.WriteString("none.\n\n")
		return
	}
	b.WriteString("| path | rule | cost |\n|---|---|---:|\n")
	for _, r := range rules {
		fmt.Fprintf(b, "| `%s` | `%s` | %d |\n", shortPath(r.Path), cell(r.Rule), r.Cost)
	}
	b.WriteString("\n")
}

// cell keeps a rule on one line of a table.
func cell(s string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "|", `\|`)
}

// findingsText says what verify --against found in one version: exact,
// or each finding with its disagreements and the shrunk counterexample
// of the first cause that shows it alone (or, failing that, with others).
func findingsText(r auditResult, version string) string {
	want := r.crd.Published[version]
	if len(want) == 0 {
		return "Verdict: **exact**, no disagreement.\n\n"
	}
	var b strings.Builder
	for _, v := range r.published.CRDs[0].Versions {
		if v.Version != version {
			continue
		}
		fmt.Fprintf(&b, "Verdict: **bypass**, %s in %d pairs, of %s:\n\n", count(v.Disagreements, "disagreement"), v.Pairs, count(len(v.Causes), "cause"))
		for _, f := range slices.Sorted(slices.Values(want)) {
			n, example := 0, ""
			alone := false
			for _, c := range v.Causes {
				fs := causeFindings(c.Kind, c.Violated, c.Rules)
				if !slices.Contains(fs, f) {
					continue
				}
				n += c.Disagreements
				if c.Counterexample != nil && (example == "" || !alone && len(fs) == 1) {
					example = fmt.Sprintf("`%s` → `%s`", compact(c.Counterexample.Old), compact(c.Counterexample.New))
					alone = len(fs) == 1
				}
			}
			fmt.Fprintf(&b, "- `%s`: %s; %s\n", f, count(n, "disagreement"), example)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// compact writes an object of verify's output on one line, as written.
func compact(obj json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, obj); err != nil {
		return err.Error()
	}
	return b.String()
}

// checkAuditDoc compares each generated section of docs/audit.md with
// what the runs gave, or, with -update, rewrites it.
func checkAuditDoc(t *testing.T, plan auditPlan, results, unions []auditResult) {
	sections := map[string]string{
		"summary":        renderSummary(plan, results),
		"details":        renderDetails(results),
		"unions summary": renderSummary(plan, unions),
		"unions details": renderDetails(unions),
	}
	for _, name := range slices.Sorted(mapKeys(sections)) {
		checkAuditSection(t, name, sections[name])
	}
}

// checkAuditSection compares the section name of docs/audit.md, between
// its markers, with got, or, with -update, rewrites it.
func checkAuditSection(t *testing.T, name, got string) {
	t.Helper()
	data, err := os.ReadFile(auditDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	begin, end := "<!-- audit "+name+": begin -->\n", "<!-- audit "+name+": end -->\n"
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("docs/audit.md has no %q ... %q", strings.TrimSpace(begin), strings.TrimSpace(end))
	}
	if !*golden.Update {
		if want := doc[i+len(begin) : j]; want != got {
			t.Errorf("docs/audit.md, section %s, differs from the runs (go test -update rewrites it; review the diff):\n--- runs\n%s\n--- docs/audit.md\n%s", name, got, want)
		}
		return
	}
	doc = doc[:i+len(begin)] + got + doc[j:]
	if err := os.WriteFile(auditDoc, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
}

// renderSummary writes the summary table: a row per CRD version.
func renderSummary(plan auditPlan, results []auditResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Runs of %d pairs per version (more where the table says so), seed %d.\n\n", plan.Pairs, plan.Seed)
	b.WriteString("| CRD | version | declarations | published rules | published verdict | disagreements | mut2cel's translation | rules added | cost: published, added |\n")
	b.WriteString("|---|---|---:|---:|---|---:|---|---:|---|\n")
	for _, r := range results {
		for _, v := range r.published.CRDs[0].Versions {
			own := ownVersion(r, v.Version)
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %s | %s | %s | %d | %d, %d |\n",
				crdLink(r), v.Version, len(v.Declarations), len(r.publishedCost[v.Version]),
				auditVerdict(r, v.Version), countWord(r, v.Disagreements, v.Pairs), ownWord(r, own),
				len(r.generatedCost[v.Version]), totalCost(r.publishedCost[v.Version]), totalCost(r.generatedCost[v.Version]))
		}
	}
	return b.String()
}

func crdLink(r auditResult) string {
	return fmt.Sprintf("[%s](#%s)", r.published.CRDs[0].CRD, anchor(r))
}

// anchor is the heading id of a corpus file's section in the details.
func anchor(r auditResult) string {
	return r.kind.anchor + strings.NewReplacer("/", "-", ".", "-", "_", "-").Replace(strings.TrimSuffix(r.crd.File, ".yaml"))
}

func auditVerdict(r auditResult, version string) string {
	want := r.crd.Published[version]
	if len(want) == 0 {
		return "exact"
	}
	return "**bypass**: " + count(len(want), "finding")
}

func countWord(r auditResult, n, pairs int) string {
	return fmt.Sprintf("%d / %d", n, pairs)
}

func ownWord(r auditResult, v ownResult) string {
	if v.disagreements == 0 {
		return "clean"
	}
	return fmt.Sprintf("%d disagreements", v.disagreements)
}

type ownResult struct{ disagreements int }

func ownVersion(r auditResult, version string) ownResult {
	for _, v := range r.own.CRDs[0].Versions {
		if v.Version == version {
			return ownResult{v.Disagreements}
		}
	}
	return ownResult{}
}

// count writes n things, in the plural unless n is 1.
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

func totalCost(rules []costRule) uint64 {
	var n uint64
	for _, r := range rules {
		n += r.Cost
	}
	return n
}
