package reference_test

import (
	"os"
	"strconv"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	crdmodel "github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/plan"
	"github.com/mut2cel/mut2cel/testkit/randomcrd"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify/pairgen"
)

// normalizeStats counts what TestNormalizeRandom did.
type normalizeStats struct {
	schemas, untranslated, versions, refusedVersions, pairs, changed, disagreements int
	// inEntries counts the versions with a union inside list items or
	// map values, by how the nearest collection above pairs its entries.
	inEntries map[plan.Pairing]int
}

// TestNormalizeRandom holds the normalizing policy, run by the
// apiserver's mutating-policy code, to the reference normalizer on
// random schemas with unions (verify's generator, as TestRandomSchemas
// uses it) and pairs shaped to their unions: each pair as a create of the
// new object and as an update, each result normalized again to check
// that it stays (the apiserver may reinvoke the policy). Unions inside
// list items and map values are among them, of every kind of collection.
// Versions with a union the back end refuses must be refused by the
// reference too. MUT2CEL_SCHEMAS and MUT2CEL_PAIRS set the counts.
func TestNormalizeRandom(t *testing.T) {
	schemas, pairs := 200, 24
	if testing.Short() {
		schemas = 60
	}
	if s := os.Getenv("MUT2CEL_SCHEMAS"); s != "" {
		schemas, _ = strconv.Atoi(s)
	}
	if s := os.Getenv("MUT2CEL_PAIRS"); s != "" {
		pairs, _ = strconv.Atoi(s)
	}
	st := normalizeStats{inEntries: map[plan.Pairing]int{}}
	for seed := int64(1); seed <= int64(schemas); seed++ {
		checkNormalizeSchema(t, seed, seed, pairs, &st)
	}
	t.Logf("%d schemas (%d not translated), %d served versions with unions (%d refused by both sides; inside entries, by the collection above: %v), %d pairs, %d normalizations that changed the object, %d disagreements",
		st.schemas, st.untranslated, st.versions, st.refusedVersions, st.inEntries, st.pairs, st.changed, st.disagreements)
	// Unions in the items of atomic lists are the rarest: the first
	// comes between seeds 100 and 200 (TestNormalizeEntries has them
	// all in -short).
	kinds := []plan.Pairing{plan.ByMapKey, plan.ByListMapKeys}
	if schemas >= 200 {
		kinds = append(kinds, plan.Unpaired)
	}
	for _, k := range kinds {
		if schemas >= 60 && st.inEntries[k] == 0 {
			t.Errorf("no version with a union inside entries paired %s: the test checks too little", k)
		}
	}
	if schemas >= 60 && (st.versions-st.refusedVersions)*5 < st.schemas {
		t.Errorf("only %d of %d schemas had a version the policy normalizes: the test checks too little", st.versions-st.refusedVersions, st.schemas)
	}
	if st.pairs > 0 && st.changed*10 < st.pairs {
		t.Errorf("only %d of %d normalizations changed the object: the pairs do not exercise the rules", st.changed, st.pairs)
	}
}

// FuzzNormalize runs the comparison of TestNormalizeRandom on one random
// schema and pair seed per input.
func FuzzNormalize(f *testing.F) {
	for _, seed := range []int64{1, 7, 42} {
		f.Add(seed, seed)
	}
	f.Fuzz(func(t *testing.T, schemaSeed, pairSeed int64) {
		checkNormalizeSchema(t, schemaSeed, pairSeed, 30, &normalizeStats{inEntries: map[plan.Pairing]int{}})
	})
}

func checkNormalizeSchema(t *testing.T, schemaSeed, pairSeed int64, pairs int, st *normalizeStats) {
	t.Helper()
	st.schemas++
	doc := randomcrd.New(schemaSeed, randomcrd.Options{Unions: true})
	res, err := translateNoPanic(doc, translate.Options{})
	if err != nil || res.Plan == nil {
		st.untranslated++
		return
	}
	translated, err := crdmodel.Read(res.Translated)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range versionNormalizers(t, doc, res.Plan) {
		if !hasUnions(res.Plan, n.version) {
			continue
		}
		st.versions++
		countEntries(res.Plan, n.version, st.inEntries)
		_, refErr := n.checker.Normalize(map[string]interface{}{}, map[string]interface{}{})
		if (refErr != nil) != (n.refusal != nil) {
			t.Fatalf("schema seed %d, version %s: the reference refuses (%v), the back end refuses (%v)\n%s", schemaSeed, n.version, refErr, n.refusal, testcrd.YAML(doc))
		}
		if n.refusal != nil {
			st.refusedVersions++
			continue
		}
		tv, _ := translated.Version(n.version)
		s, err := tv.Structural()
		if err != nil {
			t.Fatal(err)
		}
		g := pairgen.NewFor(s, pairSeed, n.checker)
		for i := 0; i < pairs; i++ {
			old, new := g.Next()
			old, new = stored(t, n, s, old), stored(t, n, s, new)
			for _, o := range []map[string]interface{}{nil, old} {
				st.pairs++
				compareNormalize(t, n, o, new, st, func() string {
					return "schema seed " + strconv.FormatInt(schemaSeed, 10) + ", pair seed " + strconv.FormatInt(pairSeed, 10) + ", pair " + strconv.Itoa(i) + "\n" + testcrd.YAML(doc)
				})
			}
		}
	}
}

// compareNormalize normalizes one request on both sides, and the result
// once more.
func compareNormalize(t *testing.T, n *normalizers, old, new map[string]interface{}, st *normalizeStats, where func() string) {
	t.Helper()
	ref, pol, err := n.both(old, new)
	if err != nil || ref != pol {
		st.disagreements++
		t.Fatalf("%s\nold: %s\nnew: %s\nreference: %s\npolicy:    %s\nerror: %v", where(), jsonText(old), jsonText(new), ref, pol, err)
	}
	if ref != jsonText(new) {
		st.changed++
	}
	again := parseJSON(t, pol).(map[string]interface{})
	ref2, pol2, err := n.both(old, again)
	if err != nil || ref2 != ref || pol2 != ref {
		t.Fatalf("%s\nnot idempotent:\nold: %s\nonce: %s\nreference again: %s\npolicy again:    %s\nerror: %v", where(), jsonText(old), ref, ref2, pol2, err)
	}
}

// stored is obj as the apiserver hands it to admission: pruned,
// defaulted and read back from JSON, with apiVersion, kind and metadata.
func stored(t *testing.T, n *normalizers, s *schema.Structural, obj map[string]interface{}) map[string]interface{} {
	t.Helper()
	out, err := kube.RoundTrip(kube.Store(s, obj))
	if err != nil {
		t.Fatal(err)
	}
	return n.object(out)
}

// hasUnions says whether the plan declares a union in the version.
func hasUnions(p *plan.Plan, version string) bool {
	v, _ := p.Version(version)
	for _, d := range v.Declarations {
		if d.Ext == decl.ExtUnions {
			return true
		}
	}
	return false
}

// countEntries counts, for each union of the version inside entries, the
// pairing of the nearest collection above it.
func countEntries(p *plan.Plan, version string, counts map[plan.Pairing]int) {
	v, _ := p.Version(version)
	for _, d := range v.Declarations {
		for i := len(d.Path) - 1; d.Ext == decl.ExtUnions && i >= 0; i-- {
			if d.Path[i].Entries {
				c, _ := v.Collection(d.Path[:i])
				counts[c.Pairing]++
				break
			}
		}
	}
}
