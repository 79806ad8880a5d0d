package costest_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/mut2cel/mut2cel/costest"
)

// policySchema is a small resource: an immutable field, a list-map of
// ports keyed by name, and a union of two members under a discriminator.
// The ports list and their names are bounded or not per test.
func policySchema(portsBound, nameBound string) string {
	return `type: object
properties:
  spec:
    type: object
    properties:
      class: {type: string, maxLength: 63}
      ports:
        type: array
` + portsBound + `        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [name]
        items:
          type: object
          required: [name]
          properties:
            name: {type: string` + nameBound + `}
            port: {type: integer}
      backend:
        type: object
        properties:
          type: {type: string, enum: [Service, Bucket]}
          service: {type: string, maxLength: 253}
          bucket: {type: string, maxLength: 63}
`
}

// Expressions of the shapes backend/policy writes (policy-validate.txtar),
// written by hand here.
const (
	fieldCompare = `oldObject == null || !('spec' in object) || !('spec' in oldObject) || !('class' in object.spec) || !('class' in oldObject.spec) || object.spec.class == oldObject.spec.class`
	listMapWalk  = `oldObject == null || !('spec' in object) || !('spec' in oldObject) || !('ports' in object.spec) || !('ports' in oldObject.spec) || ` +
		`object.spec.ports.all(n, oldObject.spec.ports.all(o, n.name != o.name || (!('port' in n) || !('port' in o) || n.port == o.port)))`
	unionCount = `!('spec' in object) || !('backend' in object.spec) || [has(object.spec.backend.service), has(object.spec.backend.bucket)].filter(x, x).size() <= 1`
	// A walk over the properties of an object and a test of its type,
	// as the union rules of backend/policy do: the object holds at most
	// its three properties, and comparing types costs 1 (policySizes).
	objectWalk = `oldObject == null || !('spec' in object) || !('spec' in oldObject) || !('backend' in object.spec) || !('backend' in oldObject.spec) || ` +
		`type(object.spec.backend) == null_type || oldObject.spec.backend.all(k, k in object.spec.backend)`
)

// TestPolicyCosts pins the estimated cost of each expression, the total
// of the binding and the reach of the three together: deterministic
// figures, as TestEstimateRuleShapes pins those of CRD rules. The
// list-map walk pairs every new entry with every old one, so its cost
// grows with the square of the list's size: unbounded, it is far over
// the per-call limit, and its reach is where n*n pairs fit in 1M.
func TestPolicyCosts(t *testing.T) {
	exprs := []string{fieldCompare, listMapWalk, unionCount, objectWalk}
	for _, tt := range []struct {
		name                string
		portsBound, nameLen string
		costs               []uint64 // fieldCompare, listMapWalk, unionCount, objectWalk
		total               uint64
		within              bool
		entries, length     int64
	}{
		// Within the limits on any object: no sizes.
		{"bounded", "        maxItems: 16\n", ", maxLength: 15", []uint64{46, 5476, 61, 48}, 5631, false, 0, 0},
		// The strings are short and bounded; only the entries matter.
		{"unbounded list", "", ", maxLength: 15", []uint64{46, 1229621612074, 61, 48}, 1229621612229, true, 200, 0},
		// The names compared in each pair are unbounded too: both matter.
		{"unbounded list and names", "", "", []uint64{46, 18420182052446502, 61, 48}, 18420182052446657, true, 50, 253},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := schemaFrom(t, policySchema(tt.portsBound, tt.nameLen))
			r, err := costest.PolicyReach(root, costest.Policy{Expressions: exprs})
			if err != nil {
				t.Fatal(err)
			}
			var got []uint64
			for _, c := range r.Costs {
				if c.Error != "" {
					t.Fatalf("%s: %s", c.Path(), c.Error)
				}
				got = append(got, c.PerCall)
			}
			if !slices.Equal(got, tt.costs) || r.PerObject != tt.total {
				t.Errorf("PolicyReach costs = %v, total %d, want %v, total %d", got, r.PerObject, tt.costs, tt.total)
			}
			if r.Within != tt.within || r.Entries != tt.entries || r.Length != tt.length {
				t.Errorf("PolicyReach within = %v, %d entries, length %d, want %v, %d, %d", r.Within, r.Entries, r.Length, tt.within, tt.entries, tt.length)
			}
			if r.Exceeds() != tt.within {
				t.Errorf("PolicyReach exceeds = %v, want %v", r.Exceeds(), tt.within)
			}
		})
	}
}

// TestPolicyReachUnboundedList checks that one linear walk over a list
// without maxItems, whose worst case is far over the per-call limit,
// gets a finite size up to which it is sure to run: the estimator's
// worst case assumes a list as long as a request can hold.
func TestPolicyReachUnboundedList(t *testing.T) {
	root := schemaFrom(t, policySchema("", ", maxLength: 15"))
	r, err := costest.PolicyReach(root, costest.Policy{Expressions: []string{`!('spec' in object) || !('ports' in object.spec) || object.spec.ports.all(p, !('port' in p) || p.port > 0)`}})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Exceeds() || len(r.OverPerCall) != 1 || r.PerObject != 2177812 {
		t.Fatalf("PolicyReach: worst case %d, want 2177812, over the per-call limit", r.PerObject)
	}
	if !r.Within || r.Entries != 100000 || r.Length != 0 {
		t.Errorf("PolicyReach = within %v, %d entries, length %d, want within, 100000 entries, length 0", r.Within, r.Entries, r.Length)
	}
}

// TestPolicyPairingCost pins the cost of the walk backend/policy writes
// to pair the old and new entries of a list-map (here for an immutable
// field of the entries, names of at most 253 characters), which compares
// every new entry with every old one, against building a map of the old
// entries by key once (transformMapEntry, Kubernetes 1.33), which a
// policy variable could hold for lookups: docs/cost.md reports both.
func TestPolicyPairingCost(t *testing.T) {
	const pairing = `object.spec.ports.all(n_5, oldObject.spec.ports.all(o_6, !((('name' in n_5 && n_5.name != null) ? n_5.name : null) == (('name' in o_6 && o_6.name != null) ? o_6.name : null)) || ` +
		`(!('port' in n_5 && n_5.port != null) || !('port' in o_6 && o_6.port != null) || (n_5.port == o_6.port))))`
	const keyed = `oldObject.spec.ports.transformMapEntry(i, o, {o.name: o}).size() >= 0`
	for _, tt := range []struct {
		entries        int
		pairing, keyed uint64
	}{
		{16, 33362, 578},
		{50, 325252, 1734},
		{100, 1300502, 3434},
		{500, 32502502, 17034},
	} {
		root := schemaFrom(t, policySchema(fmt.Sprintf("        maxItems: %d\n", tt.entries), ", maxLength: 253"))
		r, err := costest.EstimatePolicy(root, costest.Policy{Expressions: []string{pairing, keyed}})
		if err != nil {
			t.Fatal(err)
		}
		if got := []uint64{r.Costs[0].PerCall, r.Costs[1].PerCall}; got[0] != tt.pairing || got[1] != tt.keyed {
			t.Errorf("EstimatePolicy(%d entries) = %v, want [%d %d] (%s %s)", tt.entries, got, tt.pairing, tt.keyed, r.Costs[0].Error, r.Costs[1].Error)
		}
	}
}
