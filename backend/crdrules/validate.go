package crdrules

import (
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/plan"
)

// validateOutput checks the translation the way the target apiserver will:
// every generated rule compiles in the target's CEL environment for new
// rules, and the whole CRD passes the apiserver's CRD validation (structure,
// rule compilation, estimated cost). out is the translated document.
func validateOutput(out map[string]interface{}, edits []edit.Edit, target plan.KubeVersion, what string) []diag.Diagnostic {
	c, err := crd.Read(out)
	if err != nil {
		return []diag.Diagnostic{newProblem(diag.Internal, "%v", err)}
	}
	typed, err := c.Typed()
	if err != nil {
		return []diag.Diagnostic{newProblem(diag.Invalid, "%v", err).At([]interface{}{"spec"})}
	}
	problems := compileGenerated(typed, edits, target)
	errs, err := kube.ValidateCRD(typed)
	if err != nil {
		return append(problems, newProblem(diag.Internal, "validating the translated CRD: %v", err).At([]interface{}{"spec"}))
	}
	for _, e := range errs {
		if tooDeep(e.Detail) && len(problems) > 0 {
			continue // the same rule, said better by compileGenerated
		}
		p := newProblem(diag.Type(e.Type.String()), "%s fails the apiserver's validation: %s", what, e.Detail)
		p.RenderedPath = e.Field
		problems = append(problems, p)
	}
	return problems
}

// compileGenerated compiles the generated rules of every edited node in the
// target's environment.
func compileGenerated(typed *apiextensionsv1.CustomResourceDefinition, edits []edit.Edit, target plan.KubeVersion) []diag.Diagnostic {
	env := kube.NewRuleEnvSet(target.Minor)
	var problems []diag.Diagnostic
	roots := map[int]*schema.Structural{}
	for _, e := range edits {
		if len(e.AddRules) == 0 {
			continue
		}
		version, rel, _ := crd.Split(e.Path)
		root, ok := roots[version]
		if !ok {
			v := typed.Spec.Versions[version]
			s, err := kube.Structural(v.Schema.OpenAPIV3Schema)
			if err != nil {
				return append(problems, newProblem(diag.Invalid, "%v", err).At(crd.SchemaRoot(version)))
			}
			roots[version], root = s, s
		}
		n := structuralAt(root, rel)
		results, err := kube.CompileRules(n, len(rel) == 0, env)
		if err != nil {
			problems = append(problems, newProblem(diag.Internal, "%v", err).At(e.Path))
			continue
		}
		generated := map[string]bool{}
		for _, r := range e.AddRules {
			generated[r.Rule] = true
		}
		for i, r := range results {
			if r.Error == nil || !generated[n.XValidations[i].Rule] {
				continue
			}
			at := appendPath(e.Path, "x-kubernetes-validations", i, "rule")
			if tooDeep(r.Error.Detail) {
				problems = append(problems, errRuleTooDeep(e.Path, n.XValidations[i].FieldPath).At(at))
				continue
			}
			problems = append(problems, newProblem(diag.Internal, "generated rule %q does not compile for Kubernetes %s: %s",
				n.XValidations[i].Rule, target, r.Error.Detail).At(at))
		}
	}
	return problems
}

// celMaxDepth is how deeply the CEL parser lets an expression nest, and
// so how many steps a field selection such as self.?a.?b.?c may take:
// cel-go's default, which the apiserver keeps. Beyond it, compiling fails
// with "max recursion depth exceeded".
const celMaxDepth = 250

func tooDeep(detail string) bool { return strings.Contains(detail, "max recursion depth exceeded") }

// errRuleTooDeep: a generated rule on the node at host, about the field at
// fieldPath below it, nests deeper than CEL allows. That happens to
// declarations some 250 levels deep, which the depth limit of
// internal/limits refuses first; this keeps any rule that still nests so
// deep a reasoned refusal rather than an internal error.
func errRuleTooDeep(host []interface{}, fieldPath string) diag.Diagnostic {
	_, rel, _ := crd.Split(host)
	target := decl.PathOf(rel).String()
	switch {
	case fieldPath == "":
	case target == ".":
		target = fieldPath
	default:
		target += fieldPath
	}
	return newProblem(diag.Forbidden, "cannot be translated: the rule for %s nests deeper than the %d levels the apiserver's CEL parser allows (max recursion depth exceeded); declare a field nearer the schema root",
		target, celMaxDepth)
}

// structuralAt follows a schema-relative document path.
func structuralAt(s *schema.Structural, path []interface{}) *schema.Structural {
	for i := 0; i < len(path); i++ {
		switch path[i] {
		case "properties":
			i++
			p := s.Properties[path[i].(string)]
			s = &p
		case "items":
			s = s.Items
		case "additionalProperties":
			s = s.AdditionalProperties.Structural
		}
	}
	return s
}
