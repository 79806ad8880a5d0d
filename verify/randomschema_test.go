package verify_test

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
)

// randomSchemaCount is how many schemas TestRandomSchemas checks;
// MUT2CEL_SCHEMAS sets another count, MUT2CEL_PAIRS the pairs per schema
// and MUT2CEL_FIRST_SEED the first schema seed, for longer runs.
func randomSchemaCount(t *testing.T) int {
	if s := os.Getenv("MUT2CEL_SCHEMAS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("MUT2CEL_SCHEMAS=%q: %v", s, err)
		}
		return n
	}
	if testing.Short() {
		return 100
	}
	return 1000
}

// TestRandomSchemas translates random schemas and verifies each
// translation on a few pairs. A refusal that the semantics allows (an
// inexpressible constraint, a rule over the cost limit) is counted; a
// panic, any other refusal or a disagreement is a bug.
func TestRandomSchemas(t *testing.T) {
	pairs := 24
	if s := os.Getenv("MUT2CEL_PAIRS"); s != "" {
		pairs, _ = strconv.Atoi(s)
	}
	n := randomSchemaCount(t)
	first := int64(1)
	if s := os.Getenv("MUT2CEL_FIRST_SEED"); s != "" {
		first, _ = strconv.ParseInt(s, 10, 64)
	}
	stats := map[string]int{}
	for seed := first; seed < first+int64(n); seed++ {
		outcome, rep := checkRandomSchema(t, seed, seed, pairs)
		stats[outcome]++
		for _, v := range rep.versions() {
			stats["pairs judged"] += v.Pairs
			stats["pairs with an integer sent as a float judged otherwise"] += v.IntAsFloat
			stats["disagreeing pairs dropped as invalid"] += v.Invalid
		}
	}
	var lines []string
	for k, v := range stats {
		lines = append(lines, fmt.Sprintf("%s: %d", k, v))
	}
	sort.Strings(lines)
	t.Logf("%d schemas (seeds %d..%d), %d pairs each:\n%s", n, first, first+int64(n)-1, pairs, strings.Join(lines, "\n"))
}

// checkRandomSchema checks one random schema and returns what became of
// it, "verified" or the kind of refusal, and the report if verified.
func checkRandomSchema(t *testing.T, schemaSeed, pairSeed int64, pairs int) (string, report) {
	t.Helper()
	doc := randomCRD(schemaSeed)
	versions := translate.AllKubeVersions()
	kube := versions[uint64(schemaSeed)%uint64(len(versions))]
	res, err := translateNoPanic(doc, kube)
	if err != nil {
		kind := refusalKind(err)
		if kind == "" {
			t.Fatalf("schema seed %d, Kubernetes %s: unexpected refusal: %v\n%s", schemaSeed, kube, err, docYAML(doc))
		}
		return "refused: " + kind, report{}
	}
	rep, err := verify.Verify(doc, res.Translated, verify.Options{Pairs: pairs, Seed: pairSeed, Counterexamples: 1})
	if err != nil {
		t.Fatalf("schema seed %d, Kubernetes %s: %v\n%s", schemaSeed, kube, err, docYAML(doc))
	}
	for _, v := range rep.Versions {
		for _, ce := range v.Counterexamples {
			t.Fatalf("schema seed %d, pair seed %d, Kubernetes %s: disagreement:\n%s\nschema:\n%s\ntranslated:\n%s",
				schemaSeed, pairSeed, kube, ce.YAML(), docYAML(doc), docYAML(res.Translated))
		}
	}
	return "verified", report{rep}
}

// report is a Report that may be missing.
type report struct{ *verify.Report }

func (r report) versions() []*verify.VersionReport {
	if r.Report == nil {
		return nil
	}
	return r.Versions
}

func translateNoPanic(doc map[string]interface{}, v translate.KubeVersion) (res *translate.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("translate panicked: %v", r)
			res = nil
		}
	}()
	return translate.Translate(doc, translate.Options{KubeVersion: v})
}

// refusalKind names a refusal the semantics allows, "" for any other.
func refusalKind(err error) string {
	var terr *translate.Error
	if !errors.As(err, &terr) {
		return ""
	}
	kind := ""
	for _, p := range terr.Problems {
		switch {
		case strings.Contains(p.Detail, "cannot be translated exactly"):
			kind = "inexpressible"
		case strings.Contains(p.Detail, "cost"):
			kind = "cost"
		default:
			return ""
		}
	}
	return kind
}

func docYAML(doc map[string]interface{}) string {
	data, err := yaml.Marshal(doc)
	if err != nil {
		return err.Error()
	}
	return string(data)
}

// FuzzRandomSchema checks one random schema per input: translate must not
// panic, and its output must not disagree with the reference checker.
func FuzzRandomSchema(f *testing.F) {
	for _, seed := range []int64{1, 2, 3, 42} {
		f.Add(seed, seed)
	}
	f.Fuzz(func(t *testing.T, schemaSeed, pairSeed int64) {
		checkRandomSchema(t, schemaSeed, pairSeed, 50)
	})
}
