package pairgen

import (
	"os"
	"path/filepath"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify/declread"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// testedVersion is what the generator's tests need of a version that
// verify runs on: the structural schema of the CRD under test, the
// apiserver's validation of a create, and the checker of the declared
// version. It is made as verify makes its runs.
type testedVersion struct {
	s       *schema.Structural
	objects *kube.ObjectValidator
	checker *reference.Checker
}

// exampleVersion prepares the first version of an example's translation,
// held to the example's declarations.
func exampleVersion(tb testing.TB, file string) *testedVersion {
	tb.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	doc := decodeYAML(tb, data)
	res, err := translate.Translate(doc, translate.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return newTestedVersion(tb, mustRead(tb, doc).Versions[0], mustRead(tb, res.Translated).Versions[0])
}

// workloadVersion prepares the kueue Workload's v1beta2 with two
// declarations applied to both served versions, translated as verify
// --all-versions does; it skips without the corpus.
func workloadVersion(tb testing.TB) *testedVersion {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(corpus.Dir(tb), "kueue", "kueue.x-k8s.io_workloads.yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	doc := decodeYAML(tb, data)
	annotate(doc, "mut2cel.io/declarations", `v1beta2:
  .spec.podSets[*].name: {x-kubernetes-mutability: Immutable}
  .spec.queueName: {x-kubernetes-mutability: Immutable}
`)
	res, err := translate.Translate(doc, translate.Options{AllServedVersions: true})
	if err != nil {
		tb.Fatal(err)
	}
	declared, err := declread.CRD(res.Translated, nil, false)
	if err != nil {
		tb.Fatal(err)
	}
	dv, ok := mustRead(tb, declared).Version("v1beta2")
	if !ok {
		tb.Fatal("no version v1beta2")
	}
	tv, _ := mustRead(tb, res.Translated).Version("v1beta2")
	return newTestedVersion(tb, dv, tv)
}

func newTestedVersion(tb testing.TB, dv, tv *crd.Version) *testedVersion {
	tb.Helper()
	checker, err := reference.NewChecker(dv.Raw)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := tv.Structural()
	if err != nil {
		tb.Fatal(err)
	}
	props, _ := tv.Schema()
	objects, err := kube.NewObjectValidator(props)
	if err != nil {
		tb.Fatal(err)
	}
	return &testedVersion{s: s, objects: objects, checker: checker}
}

func mustRead(tb testing.TB, doc map[string]interface{}) *crd.CRD {
	tb.Helper()
	c, err := crd.Read(doc)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func decodeYAML(tb testing.TB, data []byte) map[string]interface{} {
	tb.Helper()
	var doc map[string]interface{}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		tb.Fatal(err)
	}
	return doc
}

func annotate(doc map[string]interface{}, key, value string) {
	meta := doc["metadata"].(map[string]interface{})
	annotations, _ := meta["annotations"].(map[string]interface{})
	if annotations == nil {
		annotations = map[string]interface{}{}
		meta["annotations"] = annotations
	}
	annotations[key] = value
}
