package policyrun

import (
	"fmt"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mut2cel/mut2cel/backend/policy"
	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/inputs"
)

// Flags are the flags of policy that say what its bindings apply to and
// which built-in kinds it writes for, as given; Resolve reads them.
type Flags struct {
	NamespaceSelector, ObjectSelector string
	// Exempt are NAMESPACE:NAME service accounts.
	Exempt        []string
	FailurePolicy string
	// Actions are the validating bindings' validationActions.
	Actions []string
	// Builtins are GROUP/VERSION/KIND; OpenAPI the documents they are
	// read from, if any (inputs.Builtins).
	Builtins, OpenAPI []string
}

// Resolve reads f into o's Binding, Actions and Builtins. usage, when
// set, is a bad invocation; diags are documents of --openapi that cannot
// be read. Nothing else is read.
func (o *Options) Resolve(f Flags) (usage string, diags []batch.Diagnostic) {
	if o.Binding, usage = f.binding(); usage != "" {
		return usage, nil
	}
	if o.Actions, usage = f.validationActions(); usage != "" {
		return usage, nil
	}
	o.Builtins, usage, diags = inputs.Builtins(f.Builtins, f.OpenAPI)
	return usage, diags
}

// binding reads the binding flags.
func (f Flags) binding() (policy.Options, string) {
	var b policy.Options
	var err error
	if f.NamespaceSelector != "" {
		if b.NamespaceSelector, err = metav1.ParseToLabelSelector(f.NamespaceSelector); err != nil {
			return b, fmt.Sprintf("--namespace-selector: %v", err)
		}
	}
	if f.ObjectSelector != "" {
		if b.ObjectSelector, err = metav1.ParseToLabelSelector(f.ObjectSelector); err != nil {
			return b, fmt.Sprintf("--object-selector: %v", err)
		}
	}
	for _, s := range f.Exempt {
		a, err := policy.ParseServiceAccount(s)
		if err != nil {
			return b, fmt.Sprintf("--exempt-service-account: %v", err)
		}
		b.Exempt = append(b.Exempt, a)
	}
	switch p := admissionregistrationv1.FailurePolicyType(f.FailurePolicy); p {
	case admissionregistrationv1.Fail, admissionregistrationv1.Ignore:
		b.FailurePolicy = p
	default:
		return b, fmt.Sprintf("--failure-policy: %q is neither Fail nor Ignore", f.FailurePolicy)
	}
	return b, ""
}

// validationActions reads --action.
func (f Flags) validationActions() ([]admissionregistrationv1.ValidationAction, string) {
	var out []admissionregistrationv1.ValidationAction
	seen := map[admissionregistrationv1.ValidationAction]bool{}
	for _, a := range f.Actions {
		action := admissionregistrationv1.ValidationAction(a)
		switch action {
		case admissionregistrationv1.Deny, admissionregistrationv1.Warn, admissionregistrationv1.Audit:
		default:
			return nil, fmt.Sprintf("--action: %q is none of Deny, Warn and Audit", a)
		}
		if !seen[action] {
			out = append(out, action)
		}
		seen[action] = true
	}
	if seen[admissionregistrationv1.Deny] && seen[admissionregistrationv1.Warn] {
		return nil, "--action: Deny and Warn together would report each denial twice; the apiserver refuses the binding"
	}
	return out, ""
}
