package policy

import (
	"fmt"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mut2cel/mut2cel/backend/crdrules"
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
	Options
	// Actions are the binding's validationActions; nil is [Deny]. Warn
	// and Audit without Deny roll a policy out as a dry run.
	Actions []admissionregistrationv1.ValidationAction
}

// Validating returns the validating policies of p: one per version with
// rules (a version whose declarations need no rule needs no policy), each holding one validation per rule, walked to the rule's host
// and rewritten for the plain JSON values a policy sees. c is the CRD p
// was compiled from, whose schemas say how the walks pair old and new
// entries.
func Validating(p *plan.Plan, c *crd.CRD, opts ValidatingOptions) ([]ValidatingPolicy, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	if opts.NamespaceSelector != nil && p.CRD.Scope == "Cluster" {
		return nil, ErrClusterScopedNamespaceSelector
	}
	typed, err := c.Typed()
	if err != nil {
		return nil, err
	}
	var out []ValidatingPolicy
	var refused []Refusal
	for _, v := range p.Versions {
		// No request reaches an unserved version.
		if !v.Served || len(v.Rules) == 0 {
			continue
		}
		if r := asValues(v); r != nil {
			refused = append(refused, *r)
			continue
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
		written, _, err := crdrules.Rules(cv, v, p.KubeVersion, crdrules.Options{PlainValues: true})
		if err != nil {
			return nil, err
		}
		var validations []admissionregistrationv1.Validation
		creates, status := false, false
		for _, r := range written.Rules {
			expr, err := w.validation(r)
			if err == nil {
				err, w.err = w.err, nil
			}
			if err != nil {
				refused = append(refused, Refusal{Kind: KindValidate, Version: v.Name, Node: r.Host, Detail: err.Error()})
				continue
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
		name, err := Name(p.CRD.Name, KindValidate, v.Name)
		if err != nil {
			return nil, err
		}
		constraints := matchConstraints(p.CRD, v.Name)
		constraints.ResourceRules[0].Operations = operations
		constraints.ResourceRules[0].Resources = resources
		out = append(out, ValidatingPolicy{
			Version: v.Name,
			Policy: &admissionregistrationv1.ValidatingAdmissionPolicy{
				TypeMeta:   typeMeta("ValidatingAdmissionPolicy"),
				ObjectMeta: objectMeta(name, p.CRD.Name),
				Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
					MatchConstraints: constraints,
					Validations:      validations,
					FailurePolicy:    opts.failurePolicy(),
					MatchConditions:  opts.matchConditions(),
				},
			},
			Binding: &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
				TypeMeta:   typeMeta("ValidatingAdmissionPolicyBinding"),
				ObjectMeta: objectMeta(name, p.CRD.Name),
				Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
					PolicyName:        name,
					ValidationActions: actions(opts.Actions),
					MatchResources:    opts.bindingMatch(),
				},
			},
		})
	}
	if len(refused) > 0 {
		return nil, &Error{Refusals: refused}
	}
	return out, nil
}

// validation renders one rule of the plan as a policy's expression.
func (w *walker) validation(r crdrules.Rule) (string, error) {
	if !transition(r) {
		return w.unchecked(r.Host, r.Rule.Rule)
	}
	walk, err := w.transition(r.Host, "object", "oldObject", r.Rule.Rule)
	if err != nil {
		return "", err
	}
	// Creates are matched for rules that check new objects; a rule that
	// compares with the old object holds on them.
	return "oldObject == null || (" + walk + ")", nil
}

// transition reports whether r compares old and new values: every rule
// but a union's.
func transition(r crdrules.Rule) bool {
	for _, d := range r.Origin {
		if d.Ext == decl.ExtUnions {
			return false
		}
	}
	return true
}

// asValues refuses declarations that compare formatted strings as the
// apiserver's CRD CEL reads them: a policy sees the stored strings, and
// would refuse a respelling the declaration allows.
func asValues(v plan.Version) *Refusal {
	for _, d := range v.Declarations {
		if d.Ext == decl.ExtFormats {
			return &Refusal{Kind: KindValidate, Version: v.Name, Node: d.Path, Detail: fmt.Sprintf("%s: %s compares formatted strings as the apiserver's CRD rules read them, and an admission policy sees the stored strings, so no policy means the same; leave the modifier out for a policy, which then compares the strings", d.Ext, d.Value)}
		}
	}
	return nil
}

// message is the rule's message with the place it is about, which a
// policy's validation cannot carry as a field path.
func message(r crdrules.Rule) string {
	where := r.Host.String()
	if r.Rule.FieldPath != "" {
		where = strings.TrimSuffix(where, ".") + r.Rule.FieldPath
	}
	where = strings.TrimPrefix(where, ".")
	if where == "" || strings.Contains(r.Rule.Message, where) {
		return r.Rule.Message
	}
	return where + ": " + r.Rule.Message
}

func actions(a []admissionregistrationv1.ValidationAction) []admissionregistrationv1.ValidationAction {
	if len(a) == 0 {
		return []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny}
	}
	return a
}

func ptr[T any](v T) *T { return &v }
