package verify

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/testkit/testgc"
	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
	"github.com/mut2cel/mut2cel/verify/pairgen"
)

// TestMain holds every object verify stores, in every test of the package
// (the examples, the corpus, random schemas), to what the whole storage
// pipeline makes of it, and every reason it finds to refuse one to the
// apiserver's validation (CheckStoredObjects). Garbage is collected as
// the command collects it (testgc).
func TestMain(m *testing.M) {
	CheckStoredObjects()
	testgc.Set()
	os.Exit(m.Run())
}

// TestStoreNew checks storeNew on the pairs of every example and of the
// kueue Workload, and that it leaves the pair as it was.
func TestStoreNew(t *testing.T) {
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	pairs := 3000
	if testing.Short() {
		pairs = 300
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) { checkStoreNew(t, exampleRun(t, file), pairs) })
	}
	t.Run("kueue-workload", func(t *testing.T) { checkStoreNew(t, workloadRun(t, "v1beta2"), pairs/3) })
}

func checkStoreNew(t *testing.T, r *versionRun, pairs int) {
	t.Helper()
	g := pairgen.New(r.s, 5)
	for i := 0; i < pairs; i++ {
		old, new := g.Next()
		oldJSON, newJSON := jsonvalue.Canonical(old), jsonvalue.Canonical(new)
		stored := kube.Store(r.s, jsonvalue.CopyMap(old))
		got := storeNew(r.store, old, stored, new)
		if want := kube.Store(r.s, jsonvalue.CopyMap(new)); !reflect.DeepEqual(got, want) {
			t.Fatalf("pair %d (seed 5): storeNew gives\n%s\nthe pipeline\n%s", i, jsonvalue.Canonical(got), jsonvalue.Canonical(want))
		}
		if jsonvalue.Canonical(old) != oldJSON || jsonvalue.Canonical(new) != newJSON {
			t.Fatalf("pair %d (seed 5): storeNew changed the pair", i)
		}
	}
}
