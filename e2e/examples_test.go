package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"sigs.k8s.io/yaml"
)

// example is one shipped example CRD, as declared.
type example struct {
	name string // file name
	doc  map[string]interface{}
}

func loadExamples(t *testing.T) []example {
	t.Helper()
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples in ../examples: %v", err)
	}
	var out []example
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]interface{}
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, example{name: filepath.Base(f), doc: doc})
	}
	return out
}

// exampleTransition is one update of an example object, with the causes
// the server must give ("field: Type: message"), none when it is allowed.
type exampleTransition struct {
	what     string
	old, new string
	deny     []string
}

// installExamples installs every example at every target version.
func installExamples(t *testing.T, c *cluster) []*kind {
	t.Helper()
	var kinds []*kind
	for _, ex := range loadExamples(t) {
		for _, v := range targetVersions {
			kinds = append(kinds, install(t, c, ex.name, ex.doc, v))
		}
	}
	waitServed(t, c, kinds...)
	return kinds
}

// testExamples drives the hand-written updates of every example, which
// state what examples/README.md says users may and may not change, with
// every method at every target version.
func testExamples(t *testing.T, c *cluster, kinds []*kind) {
	d := &driver{c: c, stats: newStats()}
	t.Cleanup(func() { t.Logf("judged writes:\n%s", d.stats) })
	for _, k := range kinds {
		if _, ok := exampleTables[k.source]; !ok {
			t.Errorf("example %s has no table of updates in exampleTables", k.source)
		}
	}
	if n := len(loadExamples(t)); len(exampleTables) != n {
		t.Errorf("exampleTables has %d entries for %d examples", len(exampleTables), n)
	}
	for _, k := range kinds {
		k := k
		table := exampleTables[k.source]
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			for i, tr := range table {
				for _, m := range methods {
					got := d.transition(t, k, m, fmt.Sprintf("e%d-%s", i, m), object(t, tr.old), object(t, tr.new))
					if got = sorted(got); !reflect.DeepEqual(got, sorted(tr.deny)) {
						t.Errorf("%s: %s (%s): causes %q, want %q", k.name, tr.what, m, got, sorted(tr.deny))
					}
				}
			}
		})
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
