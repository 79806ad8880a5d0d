package e2e

import (
	"fmt"
	"testing"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify/pairgen"
)

// pairSource returns, for a kind and a seed, a function that gives one
// random update per call: an old and a new object, raw (before pruning and
// defaulting). The sequence depends only on the kind and the seed.
type pairSource func(k *kind, seed int64) func() (old, new map[string]interface{})

// verifyPairs is the pair generator of the differential verifier, shaping
// the unions the kind's checker reads as verify's runs do.
func verifyPairs(k *kind, seed int64) func() (old, new map[string]interface{}) {
	return pairgen.NewFor(k.s, seed, k.checker).Next
}

// generatedSeed fixes the updates; change it to explore others.
const generatedSeed = 1

// generatedPairs is the number of random updates driven per example and
// target version; methods take turns, so each gets a third. -short drives
// the first tenth of the same updates, for quick feedback; the whole
// suite drives them all.
func generatedPairs() int {
	if testing.Short() {
		return 30
	}
	return 300
}

// testGenerated drives random updates of every example at the default and
// a later target version, judging each write.
func testGenerated(t *testing.T, c *cluster, kinds []*kind, source pairSource) {
	t.Logf("seed %d, %d updates per example and version", generatedSeed, generatedPairs())
	d := &driver{c: c, stats: newStats()}
	t.Cleanup(func() { t.Logf("judged writes:\n%s", d.stats) })
	for _, k := range kinds {
		k := k
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			driveGenerated(t, d, k, source(k, generatedSeed))
		})
	}
}

// targetVersions are the Kubernetes versions the examples are translated
// for: the default, and 1.33, where index rules change shape.
var targetVersions = []translate.KubeVersion{translate.DefaultKubeVersion, {Major: 1, Minor: 33}}

// driveGenerated drives generatedPairs updates that pass schema validation.
// Generated objects that fail it (a list under its minItems, say) are
// skipped; the test fails if too many are, rather than test less than it
// says.
func driveGenerated(t *testing.T, d *driver, k *kind, next func() (old, new map[string]interface{})) {
	driven, dropped, want := 0, 0, generatedPairs()
	for driven < want && dropped <= 2*want {
		old, new := next()
		old, new = k.conform(old), k.conform(new)
		if !k.valid(t, old) || !k.valid(t, new) {
			dropped++
			continue
		}
		m := methods[driven%len(methods)]
		d.transition(t, k, m, fmt.Sprintf("g%d-%s", driven, m), old, new)
		driven++
	}
	if driven < want {
		t.Errorf("%s: only %d of %d generated updates pass schema validation", k.name, driven, driven+dropped)
	}
	t.Logf("%s: %d updates driven, %d generated ones skipped as schema-invalid", k.name, driven, dropped)
}

// conform makes a generated object meet the validations the generator does
// not know, and gives it the kind's apiVersion and kind.
func (k *kind) conform(obj map[string]interface{}) map[string]interface{} {
	out, _ := conform(obj, k.s).(map[string]interface{})
	delete(out, "metadata")
	out["apiVersion"] = k.apiVersion
	out["kind"] = k.kind
	return out
}

// valid runs the apiserver's schema validation on a generated object (with
// name and namespace, as it is sent).
func (k *kind) valid(t *testing.T, obj map[string]interface{}) bool {
	t.Helper()
	errs, err := kube.ValidateObject(k.props, k.s, k.object("x", obj).Object)
	if err != nil {
		t.Fatalf("%s: schema validation: %v", k.name, err)
	}
	return len(errs) == 0
}
