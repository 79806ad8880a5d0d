package policy

import (
	"fmt"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/plan"
)

// ValidatingPolicy is the ValidatingAdmissionPolicy of one version of a
// CRD, with its binding.
type ValidatingPolicy struct {
	Version string
	Policy  *admissionregistrationv1.ValidatingAdmissionPolicy
	Binding *admissionregistrationv1.ValidatingAdmissionPolicyBinding
}

// ValidatingOptions shape the binding of a validating policy.
type ValidatingOptions struct {
	// Actions are the binding's validationActions; nil is [Deny].
	Actions []admissionregistrationv1.ValidationAction
	Match   Match
}

// Match is what a binding narrows its policy to, beyond the resource.
type Match struct {
	NamespaceSelector, ObjectSelector *metav1.LabelSelector
	// ExemptServiceAccounts are "namespace:name" of service accounts
	// whose requests the policy does not judge (an operator that
	// reconciles the resources it owns).
	ExemptServiceAccounts []string
	// FailurePolicy is Fail when empty.
	FailurePolicy admissionregistrationv1.FailurePolicyType
}

// Validating returns the validating policies of p: one per version with
// rules, each holding one validation per rule, walked to the rule's host
// and rewritten for the plain JSON values a policy sees. c is the CRD p
// was compiled from, whose schemas say how the walks pair old and new
// entries.
func Validating(p *plan.Plan, c *crd.CRD, opts ValidatingOptions) ([]ValidatingPolicy, error) {
	typed, err := c.Typed()
	if err != nil {
		return nil, err
	}
	var out []ValidatingPolicy
	for _, v := range p.Versions {
		if len(v.Rules) == 0 {
			continue
		}
		if err := asValues(v); err != nil {
			return nil, err
		}
		cv, ok := c.Version(v.Name)
		if !ok {
			return nil, fmt.Errorf("version %s: not in the CRD", v.Name)
		}
		s, err := cv.Structural()
		if err != nil {
			return nil, err
		}
		w := &walker{root: s, twoVar: p.KubeVersion.Major > 1 || p.KubeVersion.Minor >= 33}
		var validations []admissionregistrationv1.Validation
		creates, status := false, false
		for _, r := range v.Rules {
			expr, err := w.validation(r)
			if err == nil {
				err, w.err = w.err, nil
			}
			if err != nil {
				return nil, &Inexpressible{Version: v.Name, Path: r.Host, Detail: err.Error()}
			}
			if !transition(r) {
				creates = true
			}
			if len(r.Host) > 0 && r.Host[0].Name == "status" && !r.Host[0].Entries {
				status = true
			}
			validations = append(validations, admissionregistrationv1.Validation{
				Expression: expr,
				Message:    message(r),
				Reason:     ptr(metav1.StatusReasonInvalid),
			})
		}
		hasStatus := false
		for _, tv := range typed.Spec.Versions {
			if tv.Name == v.Name && tv.Subresources != nil && tv.Subresources.Status != nil {
				hasStatus = true
			}
		}
		resources := []string{p.CRD.Plural}
		if status && hasStatus {
			resources = append(resources, p.CRD.Plural+"/status")
		}
		operations := []admissionregistrationv1.OperationType{admissionregistrationv1.Update}
		if creates {
			operations = []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update}
		}
		name := policyName(p.CRD.Name, v.Name, "validate")
		out = append(out, ValidatingPolicy{
			Version: v.Name,
			Policy: &admissionregistrationv1.ValidatingAdmissionPolicy{
				TypeMeta:   metav1.TypeMeta{APIVersion: admissionregistrationv1.SchemeGroupVersion.String(), Kind: "ValidatingAdmissionPolicy"},
				ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
					MatchConstraints: &admissionregistrationv1.MatchResources{
						ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{
							RuleWithOperations: admissionregistrationv1.RuleWithOperations{
								Operations: operations,
								Rule: admissionregistrationv1.Rule{
									APIGroups:   []string{p.CRD.Group},
									APIVersions: []string{v.Name},
									Resources:   resources,
								},
							},
						}},
						MatchPolicy: ptr(admissionregistrationv1.Exact),
					},
					Validations:     validations,
					FailurePolicy:   ptr(failurePolicy(opts.Match)),
					MatchConditions: exemptions(opts.Match),
				},
			},
			Binding: &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
				TypeMeta:   metav1.TypeMeta{APIVersion: admissionregistrationv1.SchemeGroupVersion.String(), Kind: "ValidatingAdmissionPolicyBinding"},
				ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
					PolicyName:        name,
					ValidationActions: actions(opts.Actions),
					MatchResources:    selectors(opts.Match),
				},
			},
		})
	}
	return out, nil
}

// validation renders one rule of the plan as a policy's expression.
func (w *walker) validation(r plan.Rule) (string, error) {
	rule, err := forPlainValues(r.Rule.Rule)
	if err != nil {
		return "", err
	}
	if !transition(r) {
		return w.unchecked(r.Host, rule)
	}
	walk, err := w.transition(r.Host, "object", "oldObject", rule)
	if err != nil {
		return "", err
	}
	// Creates are matched for rules that check new objects; a rule that
	// compares with the old object holds on them.
	return "oldObject == null || (" + walk + ")", nil
}

// transition reports whether r compares old and new values: every rule
// but a union's.
func transition(r plan.Rule) bool {
	for _, d := range r.Origin {
		if d.Ext == decl.ExtUnions {
			return false
		}
	}
	return true
}

// Inexpressible is the error of a declaration no policy can enforce with
// the meaning it has in a CRD's rules.
type Inexpressible struct {
	Version string
	Path    decl.Path
	Detail  string
}

func (e *Inexpressible) Error() string {
	return fmt.Sprintf("version %s, %s: %s", e.Version, e.Path, e.Detail)
}

// asValues refuses declarations that compare formatted strings as the
// apiserver's CRD CEL reads them: a policy sees the stored strings, and
// would refuse a respelling the declaration allows.
func asValues(v plan.Version) error {
	for _, d := range v.Declarations {
		if d.Ext == decl.ExtFormats {
			return &Inexpressible{Version: v.Name, Path: d.Path, Detail: fmt.Sprintf("%s: %s compares formatted strings as the apiserver's CRD rules read them, and an admission policy sees the stored strings, so no policy means the same; leave the modifier out for a policy, which then compares the strings", d.Ext, d.Value)}
		}
	}
	return nil
}

// message is the rule's message with the place it is about, which a
// policy's validation cannot carry as a field path.
func message(r plan.Rule) string {
	where := r.Host.String()
	if r.Rule.FieldPath != "" {
		where = strings.TrimSuffix(where, ".") + r.Rule.FieldPath
	}
	where = strings.TrimPrefix(where, ".")
	if where == "" {
		return r.Rule.Message
	}
	return where + ": " + r.Rule.Message
}

func policyName(crdName, version, what string) string {
	return strings.ToLower(crdName + "-" + version + "-mut2cel-" + what)
}

func failurePolicy(m Match) admissionregistrationv1.FailurePolicyType {
	if m.FailurePolicy == "" {
		return admissionregistrationv1.Fail
	}
	return m.FailurePolicy
}

func actions(a []admissionregistrationv1.ValidationAction) []admissionregistrationv1.ValidationAction {
	if len(a) == 0 {
		return []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny}
	}
	return a
}

// exemptions are the match conditions that leave the requests of the
// exempted service accounts alone.
func exemptions(m Match) []admissionregistrationv1.MatchCondition {
	if len(m.ExemptServiceAccounts) == 0 {
		return nil
	}
	var names []string
	for _, sa := range m.ExemptServiceAccounts {
		ns, name, _ := strings.Cut(sa, ":")
		names = append(names, celString("system:serviceaccount:"+ns+":"+name))
	}
	return []admissionregistrationv1.MatchCondition{{
		Name:       "not-exempt",
		Expression: "!(request.userInfo.username in [" + strings.Join(names, ", ") + "])",
	}}
}

func selectors(m Match) *admissionregistrationv1.MatchResources {
	if m.NamespaceSelector == nil && m.ObjectSelector == nil {
		return nil
	}
	return &admissionregistrationv1.MatchResources{NamespaceSelector: m.NamespaceSelector, ObjectSelector: m.ObjectSelector}
}

func ptr[T any](v T) *T { return &v }
