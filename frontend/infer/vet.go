package infer

import (
	"fmt"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/diag"
)

// maxVetRounds bounds the runs of a checker: each run that refuses
// something comments out at least one proposal, and a compiler reports
// every problem it finds at once, so two or three runs suffice.
const maxVetRounds = 8

// Vet checks the sure proposals with check, a compiler of declarations
// (a driver passes one that runs translate on the CRD), and writes those
// it refuses commented out, with its reason. check is given the sure
// proposals as Sets(name, ...), and a problem it reports at a field's
// source (the file name, the line the proposal's number), or at a schema
// node a proposal declares, refuses that proposal. Vet runs check again
// until it accepts what is left, and returns the problems it could not
// place at a proposal.
func (r *Result) Vet(name string, check func([]decl.Set) []diag.Diagnostic) []diag.Diagnostic {
	for range maxVetRounds {
		problems := check(Sets(name, []*Result{r}))
		if len(problems) == 0 {
			return nil
		}
		var unplaced []diag.Diagnostic
		refused := 0
		for _, p := range problems {
			if n := r.refuse(name, p); n > 0 {
				refused += n
			} else {
				unplaced = append(unplaced, p)
			}
		}
		if refused == 0 {
			return unplaced
		}
	}
	return nil
}

// refuse comments out the proposals a problem is about, and counts them.
func (r *Result) refuse(name string, p diag.Diagnostic) int {
	why := "refused by the compiler: " + p.Detail
	if p.Reason != "" {
		why = fmt.Sprintf("refused by the compiler (%s): %s", p.Reason, p.Detail)
	}
	n := 0
	for _, pr := range r.Proposals {
		if pr.Doubt == "" && refers(r.crd, name, p, pr) {
			pr.Doubt = why
			n++
		}
	}
	return n
}

// refers reports whether problem p is about proposal pr: at its source,
// or at the node it declares or one above it in a version it holds for.
func refers(c *crd.CRD, name string, p diag.Diagnostic, pr *Proposal) bool {
	if p.File == name && p.Line > 0 {
		return p.Line == pr.id
	}
	i, rel, ok := crd.Split(p.Path)
	if !ok || i >= len(c.Versions) {
		return false
	}
	at := decl.PathOf(rel)
	if at.String() != pr.Path.String() && !below(pr.Path, at) {
		return false
	}
	for _, v := range pr.Versions {
		if v == c.Versions[i].Name {
			return true
		}
	}
	return false
}
