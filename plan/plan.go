package plan

import (
	"fmt"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
)

// Plan is what the compiler decided for one CRD.
type Plan struct {
	CRD CRD
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

// CRD names the CustomResourceDefinition a plan is for, as far as its
// document says.
type CRD struct {
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
	// Rules are the generated rules, in the order of Less on their
	// hosts, then in the order they were generated.
	Rules []Rule
	// Bounds are the maxLength, maxItems and maxProperties the rules
	// need to fit the CEL cost limits.
	Bounds []Bound
}

// Rule is one generated rule and where it runs.
type Rule struct {
	// Host is the schema node whose x-kubernetes-validations hold the
	// rule, relative to the version's openAPIV3Schema.
	Host decl.Path
	// Rule is the rule as the apiserver reads it: CEL relative to Host,
	// its message, reason and fieldPath.
	Rule edit.Rule
	// Cost is the apiserver's estimate of the rule in the version's
	// schema with its bounds; nil when it was not estimated.
	Cost *Cost
	// Origin are the declarations the rule stands for: one, or several
	// where fields share a presence rule.
	Origin []decl.Declaration
}

// Cost is the apiserver's static estimate of one rule.
type Cost struct {
	// PerCall is the worst-case cost of one evaluation.
	PerCall uint64
	// Cardinality is the worst-case number of evaluations per object.
	Cardinality uint64
	// Total is PerCall times Cardinality, the figure the apiserver holds
	// against its static limits.
	Total uint64
}

// Bound is a maxLength, maxItems or maxProperties to set on a node so
// that the rules fit the CEL cost limits. It narrows what the apiserver
// accepts.
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
