package verifyrun

import (
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"

	"github.com/mut2cel/mut2cel/backend/policy"
	"github.com/mut2cel/mut2cel/driver/inputs"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
)

// NormalizationJob is a Job whose unions are normalized (verify
// --normalize): the MutatingAdmissionPolicies mut2cel policy writes for
// its served versions with unions.
type NormalizationJob struct {
	Job
	Normalizers []policy.Normalizer
}

// Normalizers makes the job's normalizing policies with opts; none when
// the CRD declares no union. A union the back end cannot normalize is an
// error, as for mut2cel policy.
func Normalizers(job Job, opts translate.Options) (NormalizationJob, error) {
	// The declarations of files and markers are in the declared CRD
	// already.
	opts.Declarations = nil
	p, err := translate.Compile(job.Declared.Value, opts)
	if err != nil {
		return NormalizationJob{}, err
	}
	if job.Builtin != nil {
		inputs.RetargetBuiltin(p, *job.Builtin)
	}
	ns, err := policy.Normalizing(p, policy.Options{})
	if err != nil {
		return NormalizationJob{}, err
	}
	return NormalizationJob{Job: job, Normalizers: ns}, nil
}

// Verify holds each normalizing policy of the job, run by judges, to the
// reference normalizer on pairs generated with seed.
func (j NormalizationJob) Verify(judges PolicyJudges, pairs int, seed int64) ([]*NormalizationReport, error) {
	var out []*NormalizationReport
	for _, p := range j.Normalizers {
		n, err := newNormalization(j.Declared.Value, p.Version)
		if err != nil {
			return nil, err
		}
		if n.mutate, err = judges.NewNormalizer(j.Declared.Value, p); err != nil {
			return nil, err
		}
		rep, err := n.verify(pairs, seed)
		if err != nil {
			return nil, err
		}
		out = append(out, rep)
	}
	return out, nil
}

// TooManySetAside reports whether a server set aside more of the
// requests than verify.MaxSetAside allows: what it checked then says
// little of the policy.
func (r *NormalizationReport) TooManySetAside() bool {
	return r.Requests > 0 && float64(r.SetAside) > verify.MaxSetAside*float64(r.Requests)
}

// WriteNormalizationText writes a line per version, and the first
// disagreement of a version as a YAML document.
func WriteNormalizationText(w io.Writer, job Job, reps []*NormalizationReport) {
	d := job.Declared.At
	d.Doc, d.Object = 0, ""
	for _, r := range reps {
		verdict := "no disagreement"
		if r.Disagreements > 0 {
			verdict = fmt.Sprintf("%d disagreements, the first at pair %d", r.Disagreements, r.First.Pair)
		}
		if r.SetAside > 0 {
			verdict = fmt.Sprintf("%d set aside (the server refuses the reference's object whatever the policy), %s", r.SetAside, verdict)
		}
		if r.TooManySetAside() {
			verdict += fmt.Sprintf("; more than %g%% set aside: too few checked", verify.MaxSetAside*100)
		}
		d.Detail = fmt.Sprintf("%s %s: normalization: %d pairs, %d requests (each new object created and updated), %d normalized by the reference, %s",
			job.Declared.Name(), r.Version, r.Pairs, r.Requests, r.Changed, verdict)
		fmt.Fprintln(w, d)
	}
	for _, r := range reps {
		if r.First == nil {
			continue
		}
		ce := r.First
		doc := map[string]interface{}{
			"version": r.Version, "pair": ce.Pair,
			"old": ce.Old, "new": ce.New, "reference": ce.Reference, "policy": ce.Policy,
		}
		if ce.Err != "" {
			doc["error"] = ce.Err
		}
		data, err := yaml.Marshal(doc)
		if err != nil {
			data = []byte(err.Error() + "\n")
		}
		fmt.Fprintf(w, "---\n# the first disagreement of %s %s (old null: a create)\n%s", job.Declared.Name(), r.Version, data)
	}
}
