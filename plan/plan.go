package plan

import (
	"fmt"

	"github.com/mut2cel/mut2cel/decl"
)

// Plan is what the compiler decided for one CRD.
type Plan struct {
	// Resource names the resource of the CRD the plan is for.
	Resource Resource
	// KubeVersion is the oldest Kubernetes minor version the rules are
	// compiled for: they compile in the CEL environment it uses for new
	// CRD rules.
	KubeVersion KubeVersion
	// RecordKubeVersion is set when KubeVersion is not the compiler's
	// default: the output records it (mut2cel.io/kube-version), so that a
	// later run makes the rules for it without being told.
	RecordKubeVersion bool
	// Versions are the CRD's versions that have a schema, in the order
	// of spec.versions, each named once.
	Versions []Version
}

// Resource names the resource whose objects a plan checks: the
// CustomResourceDefinition's name and the group, kind, plural and scope
// of its resources, as far as its document says.
type Resource struct {
	Name   string // metadata.name, <plural>.<group>
	Group  string
	Kind   string
	Plural string
	Scope  string // Namespaced or Cluster
}

// Version is the plan of one version.
type Version struct {
	Name            string
	Served, Storage bool
	// Declarations are those compiled for the version, in the order of
	// Less on their paths, then of decl.Extensions.
	Declarations []decl.Declaration
	// Rules are the checks the declarations need, in the order of their
	// declarations, each declaration's in the order the compiler made
	// them.
	Rules []Rule
	// Given are the maxItems that declarations files give lists of the
	// version: a back end that compares the items of a list index by
	// index, where the target cannot iterate indices, enumerates them up
	// to the list's own maxItems or the one given here, which the list
	// then gets.
	Given []Bound
	// Collections are the lists and maps above the nodes of the
	// version's unions, in the order of Less: how their entries pair
	// with old ones, for a back end that normalizes those unions.
	Collections []Collection
}

// Rule is one check a declaration needs and where it runs.
type Rule struct {
	// Host is the schema node the check runs on, relative to the
	// version's openAPIV3Schema: it reads the host's values in the old
	// and the new object, and runs wherever the host exists (a
	// transition check: in both).
	Host decl.Path
	// Check is the condition.
	Check Check
	// Message and Reason are what a denied update reports; Reason is
	// FieldValueForbidden or FieldValueRequired.
	Message, Reason string
	// Field is the node the denial is about: the declared field, or the
	// host itself.
	Field decl.Path
	// Origin is the declaration the rule stands for.
	Origin decl.Declaration
	// FormatsAsValues: the declaration compares formatted strings as
	// the apiserver's CEL reads them (semantics.md 8), beside it or for
	// the whole run.
	FormatsAsValues bool
}

// Bound is a maxLength, maxItems or maxProperties on a node: one given
// for it, or one a back end sets so that its output fits the CEL cost
// limits, which narrows what the apiserver accepts.
type Bound struct {
	Node    decl.Path // relative to the version's openAPIV3Schema
	Keyword string    // maxLength, maxItems or maxProperties
	Value   int64
}

func (b Bound) String() string { return fmt.Sprintf("%s: %s: %d", b.Node, b.Keyword, b.Value) }

// Version returns the plan of the version named name.
func (p *Plan) Version(name string) (*Version, bool) {
	for i := range p.Versions {
		if p.Versions[i].Name == name {
			return &p.Versions[i], true
		}
	}
	return nil, false
}

// GivenMaxItems are the maxItems of Given by path, in the notation of the
// declarations annotation.
func (v *Version) GivenMaxItems() map[string]int64 {
	out := make(map[string]int64, len(v.Given))
	for _, b := range v.Given {
		if b.Keyword == "maxItems" {
			out[b.Node.String()] = b.Value
		}
	}
	return out
}
