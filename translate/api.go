package translate

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mut2cel/mut2cel/backend/crdrules"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/plan"
)

// Options select what Translate generates.
type Options struct {
	// KubeVersion is the oldest Kubernetes minor version the output must work
	// on. Rules are compiled in the CEL environment that version uses for new
	// CRD rules. Zero lets the CRD's declarations say it: the kubeVersion of
	// a declarations file, else the version recorded by an earlier run,
	// else FallbackKubeVersion (Target).
	KubeVersion KubeVersion
	// FallbackKubeVersion is the target of a CRD whose declarations say
	// none, when KubeVersion is zero. Zero means DefaultKubeVersion.
	FallbackKubeVersion KubeVersion
	// MaxLength, MaxItems and MaxProperties, when positive, are the values
	// of the bounds Translate adds where generated rules need one to fit the
	// CEL cost limits; zero lets Translate choose (docs/cost.md).
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
	// ForPolicies compiles for the admission-policy back end: the rules
	// will run over the stored JSON of objects (backend/policy rewrites
	// them for it), not over the apiserver's schema-typed CRD values. What
	// only the latter forced is lifted: formatted strings are compared as
	// the strings they are, lists of type set and map and objects with
	// unknown fields compare exactly with ==. No bound is added and the
	// CRD's static cost limits do not apply: a policy has none (its
	// runtime limits are reported instead), and the rules are not written
	// into the CRD nor validated as its rules. Compile only.
	ForPolicies bool

	// given are the bounds the declarations files give the CRD being
	// compiled (givenbounds.go), which compile reads from Declarations.
	given givenBounds
}

// Bound is a maxLength, maxItems or maxProperties Translate added so that
// the generated rules fit the CEL cost limits. It narrows what the
// apiserver accepts.
type Bound struct {
	// Path leads from the document root to the schema node, like Edit.Path.
	Path []interface{}
	// Version and Node name the node the short way: the version's name and
	// the path in the notation of the declarations annotation.
	Version, Node string
	Keyword       string
	Value         int64
	// Indexed marks the maxItems of a list whose items the rules compare
	// index by index below Kubernetes 1.33, up to maxItems: a value
	// given in a declarations file or as a per-node floor.
	Indexed bool
}

func (b Bound) String() string {
	return fmt.Sprintf("%s: %s: %d", edit.Render(b.Path), b.Keyword, b.Value)
}

// Result is the translation of one CRD document.
type Result struct {
	// Edits turn the input document into the output document. Applying them
	// to the decoded document gives Translated.
	Edits []edit.Edit
	// Translated is the output document, decoded.
	Translated map[string]interface{}
	// Bounds lists the bounds the Edits add, in document order.
	Bounds []Bound
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

// Translate compiles the x-kubernetes-mutability and
// x-kubernetes-key-mutability declarations of one CRD document (decoded from
// JSON or YAML) into x-kubernetes-validations rules for every version.
// Documents that are not apiextensions.k8s.io/v1 CRDs are an error; use IsCRD
// first. A CRD without declarations gives a Result with no edits.
func Translate(doc map[string]interface{}, opts Options) (*Result, error) {
	if opts.ForPolicies {
		return nil, errors.New("translate: rules compiled for admission policies are not CRD rules; use Compile")
	}
	return translateOwned(doc, opts)
}

// IsCRD reports whether doc is an apiextensions.k8s.io CustomResourceDefinition
// of any API version (v1beta1 ones are rejected by Translate).
func IsCRD(doc map[string]interface{}) bool {
	kind, _ := doc["kind"].(string)
	apiVersion, _ := doc["apiVersion"].(string)
	return kind == "CustomResourceDefinition" && strings.HasPrefix(apiVersion, "apiextensions.k8s.io/")
}
