package markers

import (
	"fmt"
	"strings"

	apiservercel "k8s.io/apiserver/pkg/cel"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/internal/diag"
)

// The rules controller-gen writes for +k8s:immutable (controller-tools
// v0.21 and later; the text is that of v0.23.0, pkg/crd/markers's
// Immutable.ApplyToSchema and pkg/crd's structToSchema). The field rule
// never runs when the field or a parent is absent on one side, and the
// parent rule is written only for an optional field, only on its direct
// parent: an optional parent can be unset and set again with another
// value. mut2cel's rules for the same field deny that, so these are
// replaced, not kept beside them.
func controllerGenFieldRule() edit.Rule {
	return edit.Rule{Rule: "self == oldSelf", Message: "field is immutable"}
}

func controllerGenParentRule(name string) edit.Rule {
	return edit.Rule{Rule: fmt.Sprintf("!has(oldSelf.%s) || has(self.%s)", name, name),
		Message: fmt.Sprintf("field %s is immutable once set", name)}
}

// ControllerGenRules finds in a CRD document the rules controller-gen
// wrote for the +k8s:immutable fields of r and for its ExactlyOneOf and
// AtMostOneOf markers (r.OneOf), which mut2cel's union rules replace. It
// returns the document without them (doc itself is not changed), the
// edits that remove them from doc, and a warning for each rule removed
// (for translate.Result's Warnings). A document without such rules
// (already rewritten, or of another CRD) comes back as it is. An error is
// a bug: the edits remove only rules found in doc.
func (r *Result) ControllerGenRules(doc map[string]interface{}) (map[string]interface{}, []edit.Edit, []diag.Diagnostic, error) {
	model, err := crd.Read(doc)
	if err != nil {
		return doc, nil, nil, nil
	}
	var edits []edit.Edit
	var warnings []diag.Diagnostic
	seen := map[string]bool{} // a rule two inline fields share is removed once
	for _, c := range r.replaced() {
		if c.crd != model.Name {
			continue
		}
		for _, v := range model.Versions {
			if v.Name != c.version {
				continue
			}
			path, ok := v.Node(c.node)
			if !ok {
				continue // translate reports a path the schema lacks
			}
			for i, rule := range c.rules {
				key := edit.Render(path) + "\x00" + rule.Rule
				if seen[key] || !hasRule(doc, path, rule) {
					continue // not there as controller-gen writes it
				}
				seen[key] = true
				edits = append(edits, edit.Edit{Path: path, RemoveRules: []edit.Rule{rule}})
				warnings = append(warnings, diag.Diagnostic{Path: path, Detail: fmt.Sprintf(
					"version %s: %s: replaced controller-gen's rule %q of %s (%s) by %s (docs/markers.md)",
					c.version, c.field, rule.Rule, c.marker, c.source, c.by[i])})
			}
		}
	}
	if len(edits) == 0 {
		return doc, nil, nil, nil
	}
	out, err := edit.Apply(doc, edits)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("removing controller-gen's rules: %v", err)
	}
	return out, edits, warnings, nil
}

// replacedRule is what controller-gen may have written on one node for
// one marker: any of rules (one shape per controller-gen version), and
// by, for each, what replaces it and how it differs, for the warning.
type replacedRule struct {
	crd, version string
	node         decl.Path
	rules        []edit.Rule
	by           []string
	// field is the path the warning names; marker the marker, as
	// written, and source where.
	field  decl.Path
	marker string
	source decl.Source
}

// replaced lists the rules of controller-gen's that r's markers replace.
func (r *Result) replaced() []replacedRule {
	var out []replacedRule
	for _, f := range r.Immutable {
		for _, c := range controllerGenRules(f) {
			out = append(out, replacedRule{f.CRD, f.Version, c.node, []edit.Rule{c.rule}, []string{"mut2cel's exact rules"},
				f.Path, "+" + nameK8sImmutable, f.Source})
		}
	}
	for _, o := range r.OneOf {
		name := tagAtMostOneOf
		if o.Exactly {
			name = tagExactlyOneOf
		}
		out = append(out, replacedRule{o.CRD, o.Version, o.Path, controllerGenOneOfRules(o.Fields, o.Exactly), oneOfReplacements(o.Fields, o.Exactly),
			o.Path, "+" + name + "=" + strings.Join(o.Fields, ";"), o.Source})
	}
	return out
}

// controllerGenOneOfRules are the rules controller-gen writes for
// ExactlyOneOf (exactly) or AtMostOneOf over fields, in both shapes it
// has used: v0.21's list filter and the sum of conditionals of later
// versions (pkg/crd/markers's ApplyToSchema of both), with one message.
func controllerGenOneOfRules(fields []string, exactly bool) []edit.Rule {
	op, message := "<= 1", fmt.Sprintf("at most one of the fields in %v may be set", fields)
	if exactly {
		op, message = "== 1", fmt.Sprintf("exactly one of the fields in %v must be set", fields)
	}
	has := make([]string, len(fields))
	counts := make([]string, len(fields))
	for i, f := range fields {
		has[i] = "has(self." + f + ")"
		counts[i] = "(" + has[i] + "?1:0)"
	}
	return []edit.Rule{
		{Rule: "[" + strings.Join(has, ",") + "].filter(x,x==true).size() " + op, Message: message},
		{Rule: strings.Join(counts, "+") + " " + op, Message: message},
	}
}

// oneOfReplacements say, for each shape of controllerGenOneOfRules, what
// replaces it: mut2cel's rule for the same union, which decides alike
// (TestControllerGenOneOfDecidesAlike runs both on every object of three
// members), with a reason, so that the apiserver reports a violation as
// Required value (Forbidden for at most one) rather than Invalid value;
// cheaper than v0.21's list filter (docs/cost.md); and with the members'
// names escaped for CEL, which controller-gen's rules leave as they are
// (has(self.foo-bar) does not compile). mut2cel writes a rule for every
// union it reads: kept beside it, controller-gen's would report every
// violation twice.
func oneOfReplacements(fields []string, exactly bool) []string {
	kind := "Forbidden"
	if exactly {
		kind = "Required value"
	}
	var escaped []string
	for _, f := range fields {
		if e, ok := apiservercel.Escape(f); ok && e != f {
			escaped = append(escaped, f+" ("+e+")")
		}
	}
	same := "which decides alike"
	if len(escaped) > 0 {
		same = "which escapes " + strings.Join(escaped, ", ") + " for CEL, where controller-gen's rule does not"
	}
	tail := " and reports a violation as " + kind + ", not Invalid value"
	return []string{
		"mut2cel's rule for the same union, " + same + ", at lower cost," + tail,
		"mut2cel's rule for the same union, " + same + "," + tail,
	}
}

// placedRule is a rule and the node controller-gen put it on.
type placedRule struct {
	node decl.Path
	rule edit.Rule
}

// controllerGenRules are the rules controller-gen writes for one field:
// the field rule on the field (on the struct an inline field is inlined
// into), and the parent rule, which it writes only when the field is
// optional and is a property of its parent.
func controllerGenRules(f Immutable) []placedRule {
	out := []placedRule{{f.Path, controllerGenFieldRule()}}
	if n := len(f.Path); !f.Inline && n > 0 && !f.Path[n-1].Entries {
		out = append(out, placedRule{f.Path[:n-1], controllerGenParentRule(f.Path[n-1].Name)})
	}
	return out
}

// hasRule reports whether the node at path holds rule as one of its
// x-kubernetes-validations entries, with no other keys.
func hasRule(doc map[string]interface{}, path []interface{}, rule edit.Rule) bool {
	node, err := edit.Mapping(doc, path)
	if err != nil {
		return false
	}
	entries, _ := node[edit.ValidationsKey].([]interface{})
	for _, entry := range entries {
		if r, ok := edit.RuleOf(entry); ok && r == rule {
			return true
		}
	}
	return false
}
