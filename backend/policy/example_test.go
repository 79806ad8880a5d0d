package policy_test

import (
	"fmt"

	"github.com/mut2cel/mut2cel/backend/policy"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/plan"
)

// The normalizing policy of a union without a discriminator on
// .spec.mirror: when exactly one member is added, the others go.
func ExampleNormalizing() {
	mirror := decl.Union{Members: []decl.UnionMember{{Name: "fraction"}, {Name: "percent"}}}
	p := &plan.Plan{
		Resource: plan.Resource{Name: "routes.example.com", Group: "example.com", Kind: "Route", Plural: "routes", Scope: "Namespaced"},
		Versions: []plan.Version{{Name: "v1", Served: true, Storage: true, Declarations: []decl.Declaration{
			{Path: decl.Path{{Name: "spec"}, {Name: "mirror"}}, Ext: decl.ExtUnions, Value: decl.UnionsText([]decl.Union{mirror})},
		}}},
	}
	ns, err := policy.Normalizing(p, policy.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ns[0].Policy.Name)
	fmt.Println(ns[0].Policy.Spec.Mutations[0].JSONPatch.Expression)
	// Output:
	// routes.example.com-mut2cel-normalize-v1
	// // KEP-1027 normalization of the union on .spec.mirror: members fraction, percent
	// !('spec' in object && type(object['spec']) == map && 'mirror' in object['spec'] && type(object['spec']['mirror']) == map) ? [] :
	// [object['spec']['mirror']].map(n,
	// [type(oldObject) == map && 'spec' in oldObject && type(oldObject['spec']) == map && 'mirror' in oldObject['spec'] && type(oldObject['spec']['mirror']) == map ? oldObject['spec']['mirror'] : {}].map(o,
	// [[n[?'fraction'].orValue(null) != null, n[?'percent'].orValue(null) != null]].map(s,
	// [[s[0] && o[?'fraction'].orValue(null) == null, s[1] && o[?'percent'].orValue(null) == null]].map(a,
	//   a.exists_one(x, x)
	//   ? [0, 1].filter(i, s[i] && !a[i]).map(i, JSONPatch{op: 'remove', path: ['/spec/mirror/fraction', '/spec/mirror/percent'][i]})
	//   : []
	// )[0])[0])[0])[0]
}
