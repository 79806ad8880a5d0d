package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// renderDetails writes, per audited file and version, the declarations,
// the published transition rules, what verify found with a shrunk
// counterexample for each finding, and the rules mut2cel generates. A
// version that reads exactly as the one before it says so instead.
func renderDetails(results []auditResult) string {
	var b strings.Builder
	for _, r := range results {
		fmt.Fprintf(&b, "### <a id=\"%s\"></a>%s\n\n", anchor(r.crd.File), r.published.CRDs[0].CRD)
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
	b.WriteString("Published transition rules that stand for these declarations:\n\n")
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
	if r.crd.Unstable != "" {
		return fmt.Sprintf("Verdict: exact. %s\n\n", r.crd.Why)
	}
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

func compact(obj map[string]interface{}) string {
	data, err := json.Marshal(obj)
	if err != nil {
		return err.Error()
	}
	return string(data)
}
