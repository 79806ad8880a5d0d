package auditrun

import (
	"sort"

	"github.com/mut2cel/mut2cel/driver/verifyrun"
)

// The statuses of a documented guarantee, most at risk first.
const (
	// NotEnforced: the published rules let through every judged update
	// that breaks it.
	NotEnforced = "not enforced"
	// Holes: they let through some.
	Holes = "holes"
	// Untested: they let through none, but some of its constraints no
	// judged update broke, so their rules were never put to the test.
	Untested = "untested"
	// Enforced: they let through none, and every constraint was tested.
	Enforced = "enforced"
	// Unsure: the proposal is not sure (written commented out by infer):
	// not checked.
	Unsure = "not sure"
)

var statusRank = map[string]int{NotEnforced: 0, Holes: 1, Untested: 2, Enforced: 3, Unsure: 4}

// Report is the audit of a run, the document of audit -o json
// (docs/audit.md). Fields may be added; none is renamed or removed.
type Report struct {
	// Pairs and Seed are the verifier's: updates per served version.
	Pairs int   `json:"pairs"`
	Seed  int64 `json:"seed"`
	// CRDs counts the CRDs read; Documenting those with a sure proposal.
	CRDs        int `json:"crds"`
	Documenting int `json:"documenting"`
	// Counts counts the findings by status.
	Counts map[string]int `json:"counts"`
	// Findings are sorted by risk.
	Findings []Finding `json:"findings"`
	// Bounds are those mut2cel's translation would add, by CRD: they
	// narrow what the apiserver accepts.
	Bounds []CRDBounds `json:"bounds"`
	// Notes say what else a reviewer should know of a CRD: rules that
	// deny or fail where no guarantee is broken, proposals translate
	// could not check.
	Notes []Note `json:"notes"`
}

// Finding is one documented guarantee: a proposal of infer for one field.
type Finding struct {
	CRD string `json:"crd"`
	// Origin is where the CRD was read: file:line, or the cluster's
	// name for it.
	Origin string `json:"origin"`
	Path   string `json:"path"`
	// Declaration is the proposal, as a declarations file writes it:
	// extension and value.
	Declaration map[string]string `json:"declaration"`
	Status      string            `json:"status"`
	// Versions are the served versions it holds for, each as checked.
	Versions []VersionFinding `json:"versions"`
	// Evidence is what the CRD says, one line each, as infer quotes it.
	Evidence []string `json:"evidence"`
	Notes    []string `json:"notes,omitempty"`
	// Doubt says why a proposal is not sure.
	Doubt string `json:"doubt,omitempty"`
}

// VersionFinding is a guarantee as checked in one served version.
type VersionFinding struct {
	Version string `json:"version"`
	Status  string `json:"status"`
	// Exercised counts the judged updates that reached it (of its
	// declaration reached most); Breaking those that break it, counted
	// for update constraints only (a union's are not); Allowed the
	// updates that break it that the published rules let through.
	Exercised int    `json:"exercised"`
	Breaking  int    `json:"breaking"`
	Allowed   int    `json:"allowed"`
	Holes     []Hole `json:"holes"`
	// Untested are its constraints no judged update broke.
	Untested []string `json:"untested"`
	// Adds are the rules mut2cel's translation has for it.
	Adds []Rule `json:"adds"`
}

// Hole is one way the published rules let a guarantee be broken.
type Hole struct {
	// Declaration is one declaration of the proposal, "extension: value"
	// ("x-kubernetes-update: NoUnset" for one update constraint).
	Declaration string `json:"declaration"`
	// Kind is the kind of violation let through: value, presence, keys,
	// or a union's (docs/verify.md).
	Kind string `json:"kind"`
	// Constraints are those let through, as verify names them ("NoUnset",
	// "NoSet via .spec").
	Constraints []string `json:"constraints"`
	// Allowed counts the updates let through.
	Allowed int `json:"allowed"`
	// Counterexample is the first of them, shrunk: create old, then
	// update it to new (verify -o json's form).
	Counterexample *verifyrun.CounterexampleResult `json:"counterexample,omitempty"`
}

// Rule is a rule mut2cel would add, at its host, with the apiserver's
// estimate of its cost.
type Rule struct {
	Host string `json:"host"`
	Rule string `json:"rule"`
	Cost uint64 `json:"cost"`
}

// CRDBounds are the bounds translate adds to one CRD.
type CRDBounds struct {
	CRD    string   `json:"crd"`
	Bounds []string `json:"bounds"` // "v1 .spec.name: maxLength: 253"
}

// Note is something to know of one CRD.
type Note struct {
	CRD    string `json:"crd"`
	Origin string `json:"origin"`
	Note   string `json:"note"`
}

// Failed reports whether some documented guarantee is not enforced, or
// has holes: the finding of the run.
func (r *Report) Failed() bool { return r.Counts[NotEnforced]+r.Counts[Holes] > 0 }

// sortFindings orders findings by risk (package doc).
func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if ra, rb := statusRank[a.Status], statusRank[b.Status]; ra != rb {
			return ra < rb
		}
		if va, vb := letsValueThrough(a), letsValueThrough(b); va != vb {
			return va
		}
		if a.CRD != b.CRD {
			return a.CRD < b.CRD
		}
		return a.Path < b.Path
	})
}

// letsValueThrough reports whether a hole of f lets a value change: worse
// than one that lets the field come or go, which takes two updates to
// change it.
func letsValueThrough(f Finding) bool {
	for _, v := range f.Versions {
		for _, h := range v.Holes {
			if h.Kind != "presence" {
				return true
			}
		}
	}
	return false
}

// count fills the counts of the findings.
func (r *Report) count() {
	r.Counts = map[string]int{NotEnforced: 0, Holes: 0, Untested: 0, Enforced: 0, Unsure: 0}
	for _, f := range r.Findings {
		r.Counts[f.Status]++
	}
}
