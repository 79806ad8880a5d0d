package auditrun

import (
	"sort"

	"github.com/mut2cel/mut2cel/driver/inferrun"
	"github.com/mut2cel/mut2cel/driver/verifyrun"
	"github.com/mut2cel/mut2cel/frontend/infer"
	"github.com/mut2cel/mut2cel/verify"
)

// findingOf is the finding of one proposal, checked (r) when it is sure.
func findingOf(p *inferrun.Proposed, pr *infer.Proposal, r *verifyrun.CRDResult, origin string) Finding {
	path := pr.Path.String()
	f := Finding{CRD: p.Result.CRD, Origin: origin, Path: path, Declaration: pr.Values, Notes: pr.Notes, Doubt: pr.Doubt,
		Versions: []VersionFinding{}, Evidence: []string{}}
	for _, e := range pr.Evidence {
		f.Evidence = append(f.Evidence, e.Describe(pr.Path, 0))
	}
	if pr.Doubt != "" || r == nil {
		f.Status = Unsure
		return f
	}
	for _, name := range pr.Versions {
		v := versionResult(r, name)
		if v == nil {
			continue
		}
		vf := versionFinding(v, path, ruled(pr, name))
		vf.Adds = adds(p, name, path)
		f.Versions = append(f.Versions, vf)
	}
	f.Status = Enforced
	for _, v := range f.Versions {
		if statusRank[v.Status] < statusRank[f.Status] {
			f.Status = v.Status
		}
	}
	return f
}

func versionResult(r *verifyrun.CRDResult, name string) *verifyrun.VersionResult {
	for i := range r.Versions {
		if r.Versions[i].Version == name {
			return &r.Versions[i]
		}
	}
	return nil
}

// versionFinding reads what the verifier found of the declarations at
// path in one version; ruled says a published rule of the version was
// read as standing for them.
func versionFinding(v *verifyrun.VersionResult, path string, ruled bool) VersionFinding {
	vf := VersionFinding{Version: v.Version, Holes: holes(v, path), Untested: []string{}, Adds: []Rule{}}
	for _, d := range v.Declarations {
		if d.Path == path {
			vf.Breaking += d.Violating
			vf.Exercised = max(vf.Exercised, d.Pairs)
		}
	}
	for _, h := range vf.Holes {
		vf.Allowed += h.Allowed
	}
	for _, c := range v.Untested {
		if c.Path == path {
			vf.Untested = append(vf.Untested, constraintName(c))
		}
	}
	for _, d := range v.Unexercised {
		if d.Path == path {
			vf.Untested = append(vf.Untested, d.Extension+": "+d.Value+", which no judged update reached")
		}
	}
	switch {
	case vf.Allowed > 0 && noneHeld(v, path, ruled):
		vf.Status = NotEnforced
	case vf.Allowed > 0:
		vf.Status = Holes
	case len(vf.Untested) > 0:
		vf.Status = Untested
	default:
		vf.Status = Enforced
	}
	return vf
}

// noneHeld reports, of declarations at path that the published rules let
// some update break, whether nothing of them holds: every update
// constraint that judged updates broke was let through, or, for a union,
// whose violations are not counted by constraint, no published rule was
// read as standing for it.
func noneHeld(v *verifyrun.VersionResult, path string, ruled bool) bool {
	missed := map[verifyrun.ConstraintKey]bool{}
	for _, g := range v.Groups {
		if g.Kind == verify.CauseMissed && g.Constraint != nil && g.Constraint.Path == path {
			missed[*g.Constraint] = true
		}
	}
	tested := 0
	for _, c := range v.Constraints {
		if c.Path != path || c.Violating == 0 {
			continue
		}
		tested++
		if !missed[c.ConstraintKey] {
			return false
		}
	}
	return tested > 0 || !ruled
}

// ruled reports whether a published rule of the version was read as
// standing for the proposal.
func ruled(pr *infer.Proposal, version string) bool {
	for _, e := range pr.Evidence {
		if e.Kind == infer.Rule && e.In(version) {
			return true
		}
	}
	return false
}

// holes gathers, by declaration and kind of violation, the updates the
// published rules let through that break a declaration at path, each
// with the counterexample of a cause it is alone in where there is one
// (else of another cause, else of a constraint's group), and the
// constraints let through.
func holes(v *verifyrun.VersionResult, path string) []Hole {
	out := []Hole{}
	at := map[[2]string]int{}
	alone := map[int]bool{}
	for _, c := range v.Causes {
		if c.Kind != verify.CauseMissed {
			continue
		}
		for _, x := range c.Violated {
			if x.Path != path {
				continue
			}
			k := [2]string{x.Extension + ": " + x.Value, x.Kind}
			i, ok := at[k]
			if !ok {
				i, at[k] = len(out), len(out)
				out = append(out, Hole{Declaration: k[0], Kind: k[1], Constraints: []string{}})
			}
			out[i].Allowed += c.Disagreements
			if c.Counterexample != nil && (out[i].Counterexample == nil || !alone[i] && len(c.Violated) == 1) {
				out[i].Counterexample, alone[i] = c.Counterexample, len(c.Violated) == 1
			}
		}
	}
	for _, g := range v.Groups {
		if g.Kind != verify.CauseMissed || g.Constraint == nil || g.Constraint.Path != path {
			continue
		}
		k := [2]string{g.Constraint.Extension + ": " + g.Constraint.Value, constraintKind[g.Constraint.Constraint]}
		if i, ok := at[k]; ok {
			out[i].Constraints = append(out[i].Constraints, constraintName(*g.Constraint))
			if out[i].Counterexample == nil {
				// Past the causes the verifier shrank: the group's.
				out[i].Counterexample = g.Counterexample
			}
		}
	}
	for i := range out {
		sort.Strings(out[i].Constraints)
	}
	return out
}

// constraintKind is the kind of violation that breaks each constraint.
var constraintKind = map[string]string{"NoSet": "presence", "NoUnset": "presence", "NoModify": "value", "NoAddItem": "keys", "NoRemoveItem": "keys"}

// constraintName names a constraint as verify does: "NoSet", or "NoSet
// via .spec" when it is an optional parent that comes or goes.
func constraintName(c verifyrun.ConstraintKey) string {
	if c.Via != "" && c.Via != c.Path {
		return c.Constraint + " via " + c.Via
	}
	return c.Constraint
}

// adds are the rules mut2cel's translation has, in a version, for the
// declarations at path.
func adds(p *inferrun.Proposed, version, path string) []Rule {
	out := []Rule{}
	if p.Translation == nil || p.Translation.Rules[version] == nil {
		return out
	}
	for _, r := range p.Translation.Rules[version].Rules {
		for _, d := range r.Origin {
			if d.Path.String() != path {
				continue
			}
			rule := Rule{Host: r.Host.String(), Rule: r.Rule.Rule}
			if r.Cost != nil {
				rule.Cost = r.Cost.Total
			}
			out = append(out, rule)
			break
		}
	}
	return out
}
