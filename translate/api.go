package translate

import (
	"strings"

	"github.com/mut2cel/mut2cel/backend/crdrules"
	"github.com/mut2cel/mut2cel/compiler"
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/plan"
)

// Options select what Translate generates: those of the compiler, and
// those of the CRD back end.
type Options struct {
	// KubeVersion is the oldest Kubernetes minor version the output must
	// work on. Rules are compiled in the CEL environment that version
	// uses for new CRD rules. Zero lets the CRD's declarations say it: the
	// kubeVersion of a declarations file, else the version recorded by an
	// earlier run, else FallbackKubeVersion.
	KubeVersion KubeVersion
	// FallbackKubeVersion is the target of a CRD whose declarations say
	// none, when KubeVersion is zero. Zero means DefaultKubeVersion.
	FallbackKubeVersion KubeVersion
	// MaxLength, MaxItems and MaxProperties, when positive, are the values
	// of the bounds Translate adds where generated rules need one to fit
	// the CEL cost limits; zero lets Translate choose (docs/cost.md).
	MaxLength, MaxItems, MaxProperties int64
	// NoBounds makes Translate fail, listing the bounds needed, instead of
	// adding them.
	NoBounds bool
	// BoundFloors are the smallest values of the bounds Translate adds, by
	// keyword (maxLength, maxItems, maxProperties), in place of
	// costest.DefaultFloors; NodeFloors set them for single schema nodes,
	// by path in the notation of the declarations annotation
	// (.spec.containers[*].image), in every version and CRD where the path
	// exists.
	BoundFloors map[string]int64
	NodeFloors  map[string]map[string]int64
	// AllServedVersions applies the declarations of each served version to
	// every other served version whose schema has the declared path, and
	// keeps the copies in the mut2cel.io/declarations annotation. Without
	// it, served versions that store the same objects (no conversion
	// webhook) must declare the same on every path they share
	// (docs/translation.md, "Several versions").
	AllServedVersions bool
	// Declarations are declarations kept outside the CRD (declarations
	// files, decl.ParseFile). The sets whose crd is the document's name
	// are added to its declarations, and kept in the
	// mut2cel.io/declarations annotation of the output like those of the
	// annotation itself.
	Declarations []decl.Set
	// CompareFormatsAsValues makes every declaration compare strings of
	// format date-time, duration and byte as the apiserver's CEL reads
	// them, as the modifier x-mut2cel-formats: CompareAsValues does for
	// the declarations beside it (docs/semantics.md 8): two spellings of
	// one value are no change, and a value CEL cannot read fails the
	// rules that read it. Without it such comparisons are refused.
	CompareFormatsAsValues bool
}

func (o Options) compiler() compiler.Options {
	return compiler.Options{KubeVersion: o.KubeVersion, FallbackKubeVersion: o.FallbackKubeVersion,
		AllServedVersions: o.AllServedVersions, Declarations: o.Declarations, CompareFormatsAsValues: o.CompareFormatsAsValues}
}

func (o Options) crdRules(validate bool) crdrules.Options {
	return crdrules.Options{MaxLength: o.MaxLength, MaxItems: o.MaxItems, MaxProperties: o.MaxProperties,
		NoBounds: o.NoBounds, BoundFloors: o.BoundFloors, NodeFloors: o.NodeFloors, Validate: validate}
}

// The compiler's types, which Translate reports in.
type (
	// Problem is one reason a document cannot be translated, or, among
	// Result.Warnings, something the user should know.
	Problem = compiler.Problem
	// ProblemType is the kind of a Problem.
	ProblemType = compiler.ProblemType
	// Error lists every problem of a translation.
	Error = compiler.Error
	// KubeVersion is a Kubernetes minor release.
	KubeVersion = plan.KubeVersion
	// AddedBound is a maxLength, maxItems or maxProperties Translate added so
	// that the generated rules fit the CEL cost limits.
	AddedBound = crdrules.AddedBound
)

// The problem types and reasons of compiler.
const (
	Invalid     = compiler.Invalid
	Unsupported = compiler.Unsupported
	Forbidden   = compiler.Forbidden
	Required    = compiler.Required
	Duplicate   = compiler.Duplicate
	NotFound    = compiler.NotFound
	Internal    = compiler.Internal

	ReasonInexact         = compiler.ReasonInexact
	ReasonCost            = compiler.ReasonCost
	ReasonUnescapableName = compiler.ReasonUnescapableName
	ReasonIndexComparison = compiler.ReasonIndexComparison
	ReasonFormat          = compiler.ReasonFormat
)

// The supported targets.
var (
	MinKubeVersion     = plan.MinKubeVersion
	MaxKubeVersion     = plan.MaxKubeVersion
	DefaultKubeVersion = plan.DefaultKubeVersion
	ParseKubeVersion   = plan.ParseKubeVersion
	AllKubeVersions    = plan.AllKubeVersions
)

// Result is the translation of one CRD document.
type Result struct {
	// Edits turn the input document into the output document. Applying them
	// to the decoded document gives Translated.
	Edits []edit.Edit
	// Translated is the output document, decoded.
	Translated map[string]interface{}
	// Bounds lists the bounds the Edits add, in document order.
	Bounds []AddedBound
	// Base is the document without anything mut2cel reads or writes: no
	// declarations, no mut2cel.io annotations, none of the rules it owns.
	// It is the CRD as published before anyone declared anything, which
	// the patch command's kustomize component applies to.
	Base map[string]interface{}
	// Warnings are things the translation did and the user should know:
	// a generated rule edited by hand that is now kept as the user's own.
	Warnings []Problem
	// Generated lists every rule of Translated that mut2cel generated,
	// whether this run added it or found it from an earlier run.
	Generated []GeneratedRule
	// Plan is what the compiler decided (Compile), which the Edits
	// write into the document.
	Plan *plan.Plan
	// Rules are the CRD rules the plan's checks are written as, by
	// version name, with the declarations each stands for and its cost.
	Rules map[string]*crdrules.VersionRules
}

// GeneratedRule is one generated rule and the schema node holding it.
type GeneratedRule struct {
	// Path leads from the document root to the node, like Edit.Path.
	Path []interface{}
	Rule edit.Rule
}

// Changed reports whether the translation changes the document at all.
func (r *Result) Changed() bool { return len(r.Edits) > 0 }

// IsCRD reports whether doc is an apiextensions.k8s.io CustomResourceDefinition
// of any API version (v1beta1 ones are rejected by Translate).
func IsCRD(doc map[string]interface{}) bool {
	kind, _ := doc["kind"].(string)
	apiVersion, _ := doc["apiVersion"].(string)
	return kind == "CustomResourceDefinition" && strings.HasPrefix(apiVersion, "apiextensions.k8s.io/")
}

// Translate compiles the declarations of one CRD document (decoded from
// JSON or YAML) and has the CRD back end write them into it as
// x-kubernetes-validations rules for every version, so that a CRD
// translated before is translated again in place (docs/rewrite.md).
// Documents that are not apiextensions.k8s.io/v1 CRDs are an error; use
// IsCRD first. A CRD without declarations gives a Result with no edits.
func Translate(doc map[string]interface{}, opts Options) (*Result, error) {
	comp, out, err := run(doc, opts)
	if err != nil {
		return nil, err
	}
	warnings := append(comp.Warnings, out.Warnings...)
	return &Result{Edits: out.Edits, Translated: out.Translated, Base: out.Base, Warnings: compiler.SortProblems(warnings), Bounds: out.Bounds,
		Generated: generatedRules(out.Fresh), Plan: comp.Plan, Rules: out.Rules}, nil
}

// Compile compiles the declarations of one CRD document, from every front
// end, into its plan: the checks each version needs, where they run, what
// they stand for. Translate writes that plan into the CRD; other back ends
// read it alone. It fails exactly when Translate does. Problems are an
// *Error.
func Compile(doc map[string]interface{}, opts Options) (*plan.Plan, error) {
	comp, _, err := run(doc, opts)
	if err != nil {
		return nil, err
	}
	return comp.Plan, nil
}

// CompileForPolicies compiles one CRD document into its plan for the
// admission-policy back end: the CRD's rules are not written, and the
// CRD itself is checked as one the apiserver serves, as its policies
// would mean nothing otherwise. It fails where the plan cannot be
// written as the rules of an admission policy. Problems are an *Error.
func CompileForPolicies(doc map[string]interface{}, opts Options) (*plan.Plan, error) {
	c, err := crd.Read(doc)
	if err != nil {
		c = &crd.CRD{}
	}
	comp := compiler.Compile(c, opts.compiler())
	if comp.Plan == nil {
		return nil, &Error{Problems: comp.Problems}
	}
	if err := forPolicies(c, comp, opts); err != nil {
		return nil, err
	}
	return comp.Plan, nil
}

// run compiles doc and writes its plan with the CRD back end, and reports
// the problems of both, sorted, as one *Error.
func run(doc map[string]interface{}, opts Options) (*compiler.Result, *crdrules.Output, error) {
	c, err := crd.Read(doc)
	if err != nil {
		c = &crd.CRD{}
	}
	comp := compiler.Compile(c, opts.compiler())
	problems := comp.Problems
	if comp.Plan == nil {
		return nil, nil, &Error{Problems: problems}
	}
	out, err := crdrules.Write(c, comp.Plan, opts.crdRules(len(problems) == 0))
	if err != nil {
		return nil, nil, &Error{Problems: []Problem{compiler.NewProblem(Internal, "%v", err)}}
	}
	if problems = append(problems, out.Problems...); len(problems) > 0 {
		return nil, nil, &Error{Problems: compiler.SortProblems(problems)}
	}
	return comp, out, nil
}

// forPolicies reports the problems of a compilation for the admission
// policy back end: the compiler's, the one option no policy can follow,
// and, where there is none, those of the CRD itself, which must be one
// the apiserver serves for its policies to mean anything.
func forPolicies(c *crd.CRD, comp *compiler.Result, opts Options) error {
	problems := comp.Problems
	if opts.CompareFormatsAsValues {
		problems = append(problems, compiler.NewProblem(Unsupported, "formatted strings cannot be compared as values in an admission policy, which sees the stored strings; compare them as strings").At(nil))
	}
	if len(problems) == 0 {
		served, err := crdrules.ValidateServed(c, comp.Plan)
		if err != nil {
			return &Error{Problems: []Problem{compiler.NewProblem(Internal, "%v", err)}}
		}
		problems = served
	}
	if len(problems) > 0 {
		return &Error{Problems: compiler.SortProblems(problems)}
	}
	return nil
}

// generatedRules lists the rules a fresh translation adds: with the owned
// rules set aside, those are all the generated rules of the output.
func generatedRules(edits []edit.Edit) []GeneratedRule {
	var out []GeneratedRule
	for _, e := range edits {
		for _, r := range e.AddRules {
			out = append(out, GeneratedRule{Path: e.Path, Rule: r})
		}
	}
	return out
}
