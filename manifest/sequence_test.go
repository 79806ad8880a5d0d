package manifest

import (
	"fmt"
	"math/rand"
	"os"
	"testing"
	"time"

	"github.com/mut2cel/mut2cel/edit"
)

// controllerGenCRD is controller-gen's output for the kubebuilder example:
// folded descriptions, literal blocks, rule lists of its own.
const controllerGenCRD = "../examples/kubebuilder/testdata/controller-gen/storage.example.com_volumes.yaml"

// TestApplySequences applies random sequences of edits, several of them
// on the same nodes, to controller-gen's layout, as a translation that
// replaces rules does: each must be spliced, never re-encoded. The seed
// is logged so that a failure can be replayed.
func TestApplySequences(t *testing.T) {
	data, err := os.ReadFile(controllerGenCRD)
	if err != nil {
		t.Fatal(err)
	}
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	for round := 0; round < 200; round++ {
		f, err := Parse("crd.yaml", data)
		if err != nil {
			t.Fatal(err)
		}
		d := f.Docs[0]
		edits := randomEdits(rng, d.Value(), 1+rng.Intn(8))
		if err := d.Apply(edits); err != nil {
			t.Fatalf("round %d: Apply(%v): %v", round, edits, err)
		}
		if d.reencoded {
			t.Fatalf("round %d: the document was re-encoded for edits %+v", round, edits)
		}
	}
}

// randomEdits builds n edits, each valid on the document as the edits
// before it leave it, on schema nodes picked among few so that they meet.
func randomEdits(rng *rand.Rand, doc map[string]interface{}, n int) []edit.Edit {
	var nodes [][]interface{}
	root := []interface{}{"spec", "versions", 0, "schema", "openAPIV3Schema"}
	walkMaps(doc, nil, func(p []interface{}, m map[string]interface{}) {
		if _, ok := m["type"]; ok && len(p) >= len(root) {
			nodes = append(nodes, p)
		}
	})
	rng.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
	nodes = nodes[:min(len(nodes), 3)]
	cur := edit.Copy(doc).(map[string]interface{})
	var edits []edit.Edit
	for i := 0; i < n; i++ {
		path := nodes[rng.Intn(len(nodes))]
		m, _ := edit.Mapping(cur, path)
		e := edit.Edit{Path: path}
		list, _ := m[edit.ValidationsKey].([]interface{})
		switch k := rng.Intn(5); {
		case k == 0 && len(list) > 0:
			if r, ok := edit.RuleOf(list[rng.Intn(len(list))]); ok {
				e.RemoveRules = []edit.Rule{r}
			}
		case k == 1 && len(list) > 0:
			e.Remove = []string{edit.ValidationsKey}
		case k == 2 && m["description"] != nil:
			e.Remove = []string{"description"}
		case k == 3:
			e.Set = []edit.Setting{{Key: "maxLength", Value: int64(rng.Intn(100))}}
		}
		if rng.Intn(2) == 0 || e.Remove == nil && e.RemoveRules == nil && e.Set == nil {
			e.AddRules = []edit.Rule{{Rule: fmt.Sprintf("rule %d", i), Message: "m"}}
		}
		if err := e.ApplyTo(cur); err != nil {
			panic(err)
		}
		edits = append(edits, e)
	}
	return edits
}
