package policy

import (
	"fmt"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/diag"
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

// Validating returns the validating policies of p: one per served
// version with rules (a version whose declarations need no rule needs no
// policy), each holding one validation per rule of the plan, walked to
// every instance of the rule's host over the plain JSON values a policy
// sees, and the variables its validations share. c is the CRD p was
// compiled from, whose schemas say how the walks pair old and new
// entries.
func Validating(p *plan.Plan, c *crd.CRD, opts ValidatingOptions) ([]ValidatingPolicy, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	if opts.NamespaceSelector != nil && p.Resource.Scope == "Cluster" {
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
		root, err := cv.Tree()
		if err != nil {
			return nil, err
		}
		spec, r := validations(newPrinter(root, p, v), v)
		if len(r) > 0 {
			refused = append(refused, r...)
			continue
		}
		vp, err := validatingPolicy(p, v.Name, hasStatus(typed, v.Name), spec, opts)
		if err != nil {
			return nil, err
		}
		out = append(out, vp)
	}
	if len(refused) > 0 {
		return nil, &Error{Refusals: refused}
	}
	return out, nil
}

// policySpec is what the rules of one version make of a policy.
type policySpec struct {
	validations []admissionregistrationv1.Validation
	variables   []admissionregistrationv1.Variable
	// creates: a rule checks new objects; status: a rule's host lies
	// under .status.
	creates, status bool
}

// validations renders the rules of v, one validation each, and returns
// the rules that have no exact expression. Rules that render alike are
// one validation, as the CRD back end makes them one rule: fields whose
// presence one property carries share their presence check, whose
// message then names them all.
func validations(pr *printer, v plan.Version) (policySpec, []Refusal) {
	var spec policySpec
	var refused []Refusal
	seen := map[string]*shared{}
	for _, r := range v.Rules {
		pr.names, pr.err = map[string]int{}, nil
		expr := pr.validation(r)
		if pr.err != nil {
			// Refused at the field the check is about, once for
			// all the checks of one field that fail alike.
			refusal := Refusal{Kind: KindValidate, Version: v.Name, Node: r.Field, Detail: pr.err.Error()}
			if !slices.ContainsFunc(refused, func(have Refusal) bool { return have.Error() == refusal.Error() }) {
				refused = append(refused, refusal)
			}
			continue
		}
		if s, ok := seen[expr]; ok {
			s.add(pr.root, r, spec.validations)
			continue
		}
		seen[expr] = &shared{index: len(spec.validations), rules: []plan.Rule{r}}
		if !plan.Transition(r.Check) {
			spec.creates = true
		}
		if len(r.Host) > 0 && r.Host[0].Name == "status" && !r.Host[0].Entries {
			spec.status = true
		}
		spec.validations = append(spec.validations, admissionregistrationv1.Validation{
			Expression: expr,
			Message:    message(r),
			Reason:     ptr(metav1.StatusReasonInvalid),
		})
	}
	spec.variables = pr.vars.list
	return spec, refused
}

// validation renders one rule of the plan as a policy's expression.
func (p *printer) validation(r plan.Rule) string {
	host, field := p.root.Find(r.Host), p.root.Find(r.Field)
	if host == nil || field == nil {
		p.fail("%s: no such node in the schema", r.Host)
		return "false"
	}
	if resource, ok := field.EmbeddedMetadata(); ok {
		p.fail("%s is in the metadata of the embedded resource at %s, of which the apiserver's CEL sees only name and generateName, so no validation can read it; declare metadata.name, or fields outside metadata", field.UserPath(), resource.UserPath())
		return "false"
	}
	if !plan.Transition(r.Check) {
		return p.unchecked(host, r.Check)
	}
	at, body := host, r.Check
	if pc, ok := r.Check.(plan.Paired); ok {
		if at = p.root.Find(pc.At); at == nil {
			p.fail("%s: no such node in the schema", pc.At)
			return "false"
		}
		body = pc.Body
	}
	// Creates are matched for rules that check new objects; a rule that
	// compares with the old object holds on them.
	start := place{node: p.root, x: "object", y: "oldObject", atRoot: true}
	return "oldObject == null || " + paren(p.paired(start, at, func(pl place) string { return p.body(pl, body) }))
}

// hasStatus reports whether version of the CRD has the status
// subresource.
func hasStatus(typed *apiextensionsv1.CustomResourceDefinition, version string) bool {
	for _, tv := range typed.Spec.Versions {
		if tv.Name == version && tv.Subresources != nil && tv.Subresources.Status != nil {
			return true
		}
	}
	return false
}

// validatingPolicy is the policy of one version, with its binding.
func validatingPolicy(p *plan.Plan, version string, hasStatus bool, spec policySpec, opts ValidatingOptions) (ValidatingPolicy, error) {
	resources := []string{p.Resource.Plural}
	if spec.status && hasStatus {
		resources = append(resources, p.Resource.Plural+"/status")
	}
	operations := []admissionregistrationv1.OperationType{admissionregistrationv1.Update}
	if spec.creates {
		operations = []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update}
	}
	name, err := Name(p.Resource.Name, KindValidate, version)
	if err != nil {
		return ValidatingPolicy{}, err
	}
	constraints := matchConstraints(p.Resource, version)
	constraints.ResourceRules[0].Operations = operations
	constraints.ResourceRules[0].Resources = resources
	return ValidatingPolicy{
		Version: version,
		Policy: &admissionregistrationv1.ValidatingAdmissionPolicy{
			TypeMeta:   typeMeta("ValidatingAdmissionPolicy"),
			ObjectMeta: objectMeta(name, p.Resource.Name),
			Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
				MatchConstraints: constraints,
				Variables:        spec.variables,
				Validations:      spec.validations,
				FailurePolicy:    opts.failurePolicy(),
				MatchConditions:  opts.matchConditions(),
			},
		},
		Binding: &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
			TypeMeta:   typeMeta("ValidatingAdmissionPolicyBinding"),
			ObjectMeta: objectMeta(name, p.Resource.Name),
			Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
				PolicyName:        name,
				ValidationActions: actions(opts.Actions),
				MatchResources:    opts.bindingMatch(),
			},
		},
	}, nil
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

// message is the rule's message with the field it is about, which a
// policy's validation cannot carry as a field path, where the message
// does not name it already; printable, since kubectl shows it on a
// terminal and a property name may hold control characters.
func message(r plan.Rule) string {
	where := strings.TrimPrefix(r.Field.String(), ".")
	if where == "" || strings.Contains(r.Message, where) {
		return diag.Printable(r.Message)
	}
	return diag.Printable(where + ": " + r.Message)
}

func actions(a []admissionregistrationv1.ValidationAction) []admissionregistrationv1.ValidationAction {
	if len(a) == 0 {
		return []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny}
	}
	return a
}

func ptr[T any](v T) *T { return &v }

// shared are the rules one validation stands for.
type shared struct {
	index int
	rules []plan.Rule
}

// add has the validation stand for r too: a presence check then names
// every field in its message.
func (s *shared) add(root *crd.Node, r plan.Rule, validations []admissionregistrationv1.Validation) {
	first, ok := presenceOf(s.rules[0].Check)
	if _, also := presenceOf(r.Check); !ok || !also {
		return
	}
	for _, have := range s.rules {
		if have.Field.String() == r.Field.String() {
			return // declared twice to one end
		}
	}
	s.rules = append(s.rules, r)
	fields := make([]string, len(s.rules))
	for i, sr := range s.rules {
		fields[i] = root.Find(sr.Field).UserPath()
	}
	validations[s.index].Message = plan.PresenceMessage(fields, first.Mode)
}

// presenceOf returns the presence check c is or leads to.
func presenceOf(c plan.Check) (plan.Presence, bool) {
	if p, ok := c.(plan.Paired); ok {
		c = p.Body
	}
	p, ok := c.(plan.Presence)
	return p, ok
}
