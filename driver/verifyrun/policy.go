package verifyrun

import (
	"bufio"
	"bytes"
	"fmt"
	"os"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/backend/policy"
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
)

// PolicyJob is a Job judged through validating admission policies rather
// than through the CRD's rules: the CRD under test is the declared one as
// published (no declarations, no generated rules), whose own rules still
// run, and the policies decide what they allow.
type PolicyJob struct {
	Job
	Policies []policy.ValidatingPolicy
}

// OwnPolicies makes the job's policies those mut2cel policy writes for
// its declarations (--policy), compiled with opts.
func OwnPolicies(job Job, opts translate.Options) (PolicyJob, error) {
	// The declarations of files and markers are in the declared CRD
	// already.
	opts.Declarations = nil
	p, err := translate.CompileForPolicies(job.Declared.Value, opts)
	if err != nil {
		return PolicyJob{}, err
	}
	model, err := crd.Read(job.Declared.Value)
	if err != nil {
		return PolicyJob{}, err
	}
	ps, err := policy.Validating(p, model, policy.ValidatingOptions{})
	if err != nil {
		return PolicyJob{}, err
	}
	return policyJob(job, ps)
}

// AgainstPolicies makes the job's policies those of the manifest at path
// that match its CRD's resource, version by version (--against-policy): a
// hand-written policy.
func AgainstPolicies(job Job, all []*admissionregistrationv1.ValidatingAdmissionPolicy) (PolicyJob, error) {
	model, err := crd.Read(job.Declared.Value)
	if err != nil {
		return PolicyJob{}, err
	}
	var ps []policy.ValidatingPolicy
	for _, v := range model.Versions {
		for _, p := range all {
			if matches(p, model.Group, v.Name, model.Plural) {
				ps = append(ps, policy.ValidatingPolicy{Version: v.Name, Policy: p})
			}
		}
	}
	if len(ps) == 0 {
		return PolicyJob{}, fmt.Errorf("no ValidatingAdmissionPolicy of the manifest matches updates of %s.%s: nothing to judge", model.Plural, model.Group)
	}
	return policyJob(job, ps)
}

// matches reports whether p's match constraints take updates of the
// resource in version.
func matches(p *admissionregistrationv1.ValidatingAdmissionPolicy, group, version, plural string) bool {
	if p.Spec.MatchConstraints == nil {
		return false
	}
	has := func(list []string, s string) bool {
		for _, x := range list {
			if x == s || x == "*" {
				return true
			}
		}
		return false
	}
	for _, r := range p.Spec.MatchConstraints.ResourceRules {
		ops := false
		for _, op := range r.Operations {
			ops = ops || op == admissionregistrationv1.Update || op == admissionregistrationv1.OperationAll
		}
		if ops && has(r.APIGroups, group) && has(r.APIVersions, version) && has(r.Resources, plural) {
			return true
		}
	}
	return false
}

func policyJob(job Job, ps []policy.ValidatingPolicy) (PolicyJob, error) {
	published, err := crd.Published(job.Declared.Value)
	if err != nil {
		return PolicyJob{}, err
	}
	job.Tested = published
	return PolicyJob{Job: job, Policies: ps}, nil
}

// ReadPolicies reads the ValidatingAdmissionPolicy documents of the
// manifest at path; other documents (bindings) are skipped.
func ReadPolicies(path string) ([]*admissionregistrationv1.ValidatingAdmissionPolicy, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []*admissionregistrationv1.ValidatingAdmissionPolicy
	r := utilyaml.NewYAMLReader(bufioReader(data))
	for i := 1; ; i++ {
		doc, err := r.Read()
		if err != nil {
			break
		}
		var head struct{ APIVersion, Kind string }
		if err := yaml.Unmarshal(doc, &head); err != nil {
			return nil, fmt.Errorf("%s: document %d: %v", path, i, err)
		}
		if head.Kind != "ValidatingAdmissionPolicy" {
			continue
		}
		if head.APIVersion != admissionregistrationv1.SchemeGroupVersion.String() {
			return nil, fmt.Errorf("%s: document %d: %s %s: only %s policies are read", path, i, head.APIVersion, head.Kind, admissionregistrationv1.SchemeGroupVersion)
		}
		p := &admissionregistrationv1.ValidatingAdmissionPolicy{}
		if err := yaml.UnmarshalStrict(doc, p); err != nil {
			return nil, fmt.Errorf("%s: document %d: %v", path, i, err)
		}
		if p.Spec.ParamKind != nil {
			return nil, fmt.Errorf("%s: document %d: policy %s takes parameters (paramKind), which verify cannot give it", path, i, p.Name)
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no ValidatingAdmissionPolicy", path)
	}
	return out, nil
}

// Verify judges the job through its policies.
func (j PolicyJob) Verify(opts verify.Options) (*verify.Report, error) {
	opts.NewJudge = PolicyJudge(j.Policies)
	return verify.Verify(j.Declared.Value, j.Tested, opts)
}

func bufioReader(data []byte) *bufio.Reader { return bufio.NewReader(bytes.NewReader(data)) }
