package verifyrun

import (
	"fmt"
	"io"

	"github.com/mut2cel/mut2cel/backend/policy"
	"github.com/mut2cel/mut2cel/verify"
)

// PolicyServer is a real apiserver whose admission chain runs the
// apiserver's MutatingAdmissionPolicy and ValidatingAdmissionPolicy
// plugins (driver/policyserver's Server): the judge of --server with
// --policy, --against-policy and --normalize. The command gives it
// through Options.StartPolicyServer, so that this package, and the
// binary without the server tag, do not import the server.
type PolicyServer interface {
	// NewPolicyJudge is PolicyJudge through the server: the CRD's own
	// rules, then the policies, decide each update.
	NewPolicyJudge(policies []policy.ValidatingPolicy) func(verify.Target) (verify.Judge, error)
	// NewNormalizer installs the version n.Version of the declared CRD,
	// as published, with the normalizing policy n, and returns what
	// sends a request through the server and reads what it stored.
	NewNormalizer(declared map[string]interface{}, n policy.Normalizer) (Normalization, error)
}

// StartPolicyServerFunc starts a PolicyServer; it returns what stops it,
// or false when it cannot start, which it reports.
type StartPolicyServerFunc func(stderr io.Writer, quiet bool) (srv PolicyServer, stop func(), ok bool)

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

// verifyPolicies judges pj through its policies: in process, or through
// the server of --server.
func (r *Options) verifyPolicies(pj PolicyJob, opts verify.Options) (*verify.Report, error) {
	if r.policyServer == nil {
		return pj.Verify(opts)
	}
	opts.NewJudge = r.policyServer.NewPolicyJudge(pj.Policies)
	return verify.Verify(pj.Declared.Value, pj.Tested, opts)
}

// normalizations holds the normalizing policies of nj to the reference:
// in process, or through the server of --server.
func (r *Options) normalizations(nj NormalizationJob) ([]*NormalizationReport, error) {
	if r.policyServer == nil {
		return nj.Verify(r.Verify.Pairs, r.Verify.Seed)
	}
	var out []*NormalizationReport
	for _, p := range nj.Normalizers {
		n, err := newNormalization(nj.Declared.Value, p.Version)
		if err != nil {
			return nil, err
		}
		if n.mutate, err = r.policyServer.NewNormalizer(nj.Declared.Value, p); err != nil {
			return nil, err
		}
		rep, err := n.verify(r.Verify.Pairs, r.Verify.Seed)
		if err != nil {
			return nil, err
		}
		out = append(out, rep)
	}
	return out, nil
}
