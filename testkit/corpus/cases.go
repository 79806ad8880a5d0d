package corpus

import (
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/yaml"
)

// Case is one set of declarations on a CRD of the corpus, from
// testdata/real/cases.yaml.
type Case struct {
	Name         string                                       `json:"name"`
	File         string                                       `json:"file"`
	KubeVersion  string                                       `json:"kubeVersion"`
	AllVersions  bool                                         `json:"allVersions"`
	Declarations map[string]map[string]map[string]interface{} `json:"declarations"`
}

// Cases reads testdata/real/cases.yaml.
func Cases(tb testing.TB) []Case {
	tb.Helper()
	root, err := moduleRoot()
	if err != nil {
		tb.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "testdata", "real", "cases.yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	var cases []Case
	if err := yaml.UnmarshalStrict(data, &cases); err != nil {
		tb.Fatalf("testdata/real/cases.yaml: %v", err)
	}
	return cases
}

// Declared returns the case's CRD, decoded, with its declarations in the
// mut2cel.io/declarations annotation, as a user would write them.
func (c Case) Declared(tb testing.TB) map[string]interface{} {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(Dir(tb), c.File))
	if err != nil {
		tb.Fatal(err)
	}
	docs, err := split(data)
	if err != nil || len(docs) == 0 {
		tb.Fatalf("%s: %v", c.File, err)
	}
	var doc map[string]interface{}
	if err := yaml.Unmarshal(docs[0], &doc); err != nil {
		tb.Fatalf("%s: %v", c.File, err)
	}
	decls, err := yaml.Marshal(c.Declarations)
	if err != nil {
		tb.Fatal(err)
	}
	meta := doc["metadata"].(map[string]interface{})
	annotations, _ := meta["annotations"].(map[string]interface{})
	if annotations == nil {
		annotations = map[string]interface{}{}
		meta["annotations"] = annotations
	}
	annotations["mut2cel.io/declarations"] = string(decls)
	return doc
}
