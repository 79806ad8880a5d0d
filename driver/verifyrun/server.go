package verifyrun

import (
	"errors"
	"fmt"
	"io"

	"github.com/mut2cel/mut2cel/backend/policy"
	"github.com/mut2cel/mut2cel/verify"
)

// PolicyJudges run the policies of --policy, --against-policy and
// --normalize with the apiserver's admission code: in this process
// (driver/policyjudge.InProcess, Options.PolicyJudges), or through a real
// apiserver whose admission chain runs the apiserver's
// MutatingAdmissionPolicy and ValidatingAdmissionPolicy plugins
// (driver/policyserver's Server, started by Options.StartPolicyServer).
// The command gives both, so that this package, and the binary without
// the server tag, import neither: the admission code alone is about 20 MB
// of the binary.
type PolicyJudges interface {
	// NewPolicyJudge returns the judge of updates by the validating
	// policies: the CRD's own rules, then the policies, decide each.
	NewPolicyJudge(policies []policy.ValidatingPolicy) func(verify.Target) (verify.Judge, error)
	// NewNormalizer returns what the normalizing policy n makes of a
	// request on the version n.Version of the declared CRD.
	NewNormalizer(declared map[string]interface{}, n policy.Normalizer) (Normalization, error)
}

// StartPolicyServerFunc starts the server of PolicyJudges; it returns what
// stops it, or false when it cannot start, which it reports.
type StartPolicyServerFunc func(stderr io.Writer, quiet bool) (srv PolicyJudges, stop func(), ok bool)

// startServer starts the server of --server: the apiextensions-apiserver
// alone to judge by the CRD's rules, with the admission-policy plugins to
// judge policies.
func (r *Options) startServer() (stop func(), ok bool) {
	if !r.Policy && r.HandWritten == nil && !r.Normalize {
		return r.StartServer(r.Stderr, &r.Verify, r.Quiet)
	}
	if r.StartPolicyServer == nil {
		fmt.Fprintln(r.Stderr, "mut2cel verify: --server with policies needs the admission-policy plugins, which this binary is built without")
		return nil, false
	}
	r.policyServer, stop, ok = r.StartPolicyServer(r.Stderr, r.Quiet)
	return stop, ok
}

// judges are the PolicyJudges of the run: the server of --server, or
// those of this process.
func (r *Options) judges() (PolicyJudges, error) {
	switch {
	case r.policyServer != nil:
		return r.policyServer, nil
	case r.PolicyJudges != nil:
		return r.PolicyJudges, nil
	}
	return nil, errors.New("policies are judged by the apiserver's admission-policy code, which this binary is built without")
}

// verifyPolicies judges pj through its policies: in process, or through
// the server of --server.
func (r *Options) verifyPolicies(pj PolicyJob, opts verify.Options) (*verify.Report, error) {
	judges, err := r.judges()
	if err != nil {
		return nil, err
	}
	return pj.Verify(judges, opts)
}

// normalizations holds the normalizing policies of nj to the reference:
// in process, or through the server of --server.
func (r *Options) normalizations(nj NormalizationJob) ([]*NormalizationReport, error) {
	judges, err := r.judges()
	if err != nil {
		return nil, err
	}
	return nj.Verify(judges, r.Verify.Pairs, r.Verify.Seed)
}
