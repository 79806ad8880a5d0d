package crdrules

import (
	"fmt"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/mut2cel/mut2cel/plan"
)

// Options say how a plan is written as CRD rules.
type Options struct {
	// MaxLength, MaxItems and MaxProperties, when positive, are the values
	// of the bounds Write adds where the rules need one to fit the CEL
	// cost limits; zero lets Write choose (docs/cost.md).
	MaxLength, MaxItems, MaxProperties int64
	// NoBounds makes Write refuse, listing the bounds needed, instead of
	// adding them.
	NoBounds bool
	// BoundFloors are the smallest values of the bounds Write adds, by
	// keyword (maxLength, maxItems, maxProperties), in place of
	// costest.DefaultFloors; NodeFloors set them for single schema nodes,
	// by path in the notation of the declarations annotation
	// (.spec.containers[*].image), in every version and CRD where the
	// path exists. A per-node floor wins over a bound a declarations file
	// gives the node (plan.Version.Given).
	BoundFloors map[string]int64
	NodeFloors  map[string]map[string]int64
	// Validate checks the output as the target apiserver would (every
	// rule compiles, the CRD passes its validation). A caller that has
	// problems of its own with the same run leaves it unset: a partial
	// output would fail for reasons already reported.
	Validate bool
}

// boundIn is the bound given for keyword on the node at path: the run's
// per-node floor, else a declarations file's; 0 when none is.
func (o Options) boundIn(pv *plan.Version, path, keyword string) int64 {
	if v := o.NodeFloors[path][keyword]; v > 0 {
		return v
	}
	for _, b := range pv.Given {
		if b.Node.String() == path && b.Keyword == keyword {
			return b.Value
		}
	}
	return 0
}

// floorIn is the floor of the bounds Write adds in the version pv: the
// bound given for the node, else the floor given for the keyword, else 0
// for costest's default.
func (o Options) floorIn(pv *plan.Version) func(node []string, keyword string) int64 {
	return func(node []string, keyword string) int64 {
		if v := o.boundIn(pv, decl.PathOf(toSteps(node)).String(), keyword); v > 0 {
			return v
		}
		return o.BoundFloors[keyword]
	}
}

// givenMaxItems lists the maxItems given for the lists of pv: by its
// declarations files, then by the run's per-node floors.
func (o Options) givenMaxItems(pv plan.Version) map[string]int64 {
	out := pv.GivenMaxItems()
	for path, kws := range o.NodeFloors {
		if v := kws["maxItems"]; v > 0 {
			out[path] = v
		}
	}
	return out
}

// AddedBound is a maxLength, maxItems or maxProperties Write added so that the
// rules fit the CEL cost limits. It narrows what the apiserver accepts.
type AddedBound struct {
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

func (b AddedBound) String() string {
	return fmt.Sprintf("%s: %s: %d", edit.Render(b.Path), b.Keyword, b.Value)
}

// newProblem words a problem; its place is set by the caller.
func newProblem(t diag.Type, format string, args ...interface{}) diag.Diagnostic {
	return diag.Diagnostic{Type: t, Detail: fmt.Sprintf(format, args...)}
}

// withHint names the option that would change the outcome of p; the
// command words it (the library's messages name no flag).
func withHint(p diag.Diagnostic, h diag.Hint) diag.Diagnostic {
	p.Hint = h
	return p
}

func toSteps(keys []string) []interface{} {
	out := make([]interface{}, len(keys))
	for i, k := range keys {
		out[i] = k
	}
	return out
}

func appendPath(p []interface{}, steps ...interface{}) []interface{} {
	return append(append(make([]interface{}, 0, len(p)+len(steps)), p...), steps...)
}
