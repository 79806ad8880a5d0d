package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/corpus"
)

// normalizeLine is the line verify --normalize -q writes per version.
var normalizeLine = regexp.MustCompile(`^\S+:\d+: (\S+) (\S+): normalization: (\d+) pairs, (\d+) requests \(each new object created and updated\), (\d+) normalized by the reference, (no disagreement|\d+ disagreements)`)

// normalizeRow is one version of an audited union CRD, normalized.
type normalizeRow struct {
	file, crd, version                     string
	pairs, requests, changed, disagreement int
}

// TestAuditNormalize runs verify --normalize on every CRD of the union
// audit (testdata/audit/audit.yaml, "unions"), with its declarations,
// pairs and seed: the normalizing policy mut2cel policy writes, run by
// the apiserver's mutating-policy code, must agree with the reference
// normalizer on every request, and docs/audit.md's table of the runs is
// what they give (go test -update rewrites it). With -short, the
// standard HTTPRoute alone, on 100 pairs, and no table.
func TestAuditNormalize(t *testing.T) {
	dir := corpus.Dir(t)
	plan := readAuditPlan(t)
	crds := plan.Unions
	if testing.Short() {
		crds = crds[:1]
		crds[0].Pairs = 100
	}
	var rows []normalizeRow
	for _, c := range crds {
		pairs := plan.Pairs
		if c.Pairs > 0 {
			pairs = c.Pairs
		}
		code, out, errOut := runCLI("verify", "--normalize", "-q", "--pairs", strconv.Itoa(pairs), "--seed", strconv.Itoa(plan.Seed),
			"--declarations", filepath.Join(auditDir, c.Declarations), filepath.Join(dir, c.File))
		if code != exitOK {
			t.Errorf("verify --normalize %s: exit %d\n%s%s", c.File, code, out, errOut)
			continue
		}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			m := normalizeLine.FindStringSubmatch(line)
			if m == nil {
				t.Fatalf("verify --normalize %s: unexpected line %q", c.File, line)
			}
			r := normalizeRow{file: c.File, crd: m[1], version: m[2]}
			r.pairs, _ = strconv.Atoi(m[3])
			r.requests, _ = strconv.Atoi(m[4])
			r.changed, _ = strconv.Atoi(m[5])
			rows = append(rows, r)
		}
	}
	if testing.Short() || t.Failed() {
		return
	}
	checkAuditSection(t, "unions normalization", renderNormalize(plan, rows))
}

// renderNormalize writes the table of the normalization runs.
func renderNormalize(plan auditPlan, rows []normalizeRow) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Runs of verify --normalize, %d pairs per version (more where the table says so), seed %d; each pair is two requests, the new object created and updated from the old one.\n\n", plan.Pairs, plan.Seed)
	b.WriteString("| CRD | version | pairs | requests | normalized by the reference | disagreements |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|\n")
	for _, r := range rows {
		link := fmt.Sprintf("[%s](#%s)", r.crd, anchor(auditResult{crd: auditCRD{File: r.file}, kind: unionAudit}))
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d |\n", link, r.version, r.pairs, r.requests, r.changed, r.disagreement)
	}
	return b.String()
}
