package pairgen

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
)

// TestPairGenerator checks, on every example, that the same seed gives the
// same pairs and that every generated object, in stored form, is one the
// apiserver accepts on create, but where the reference checker finds a
// union broken: the apiserver must refuse exactly those (unions are the
// one declaration that constrains creates, semantics.md 11.4). 1,000
// pairs each, 300 under -short.
func TestPairGenerator(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	const seed = 5
	pairs := 1000
	if testing.Short() {
		pairs = 300
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			r := exampleVersion(t, file)
			a, b := New(r.s, seed), New(r.s, seed)
			changed := 0
			for i := 0; i < pairs; i++ {
				old, new := a.Next()
				old2, new2 := b.Next()
				if !reflect.DeepEqual(old, old2) || !reflect.DeepEqual(new, new2) {
					t.Fatalf("pair %d differs between two generators with seed %d", i, seed)
				}
				if jsonvalue.Canonical(old) != jsonvalue.Canonical(new) {
					changed++
				}
				checkValid(t, r, old, fmt.Sprintf("old object of pair %d", i))
				checkValid(t, r, new, fmt.Sprintf("new object of pair %d", i))
			}
			// Most pairs change something; some must not (an update that
			// changes nothing is always allowed).
			if changed < pairs/2 || changed == pairs {
				t.Errorf("%d of %d pairs change the object", changed, pairs)
			}
		})
	}
}

func checkValid(t *testing.T, r *testedVersion, obj map[string]interface{}, what string) {
	t.Helper()
	stored, err := kube.RoundTrip(kube.Store(r.s, jsonvalue.CopyMap(obj)))
	if err != nil {
		t.Fatal(err)
	}
	errs := r.objects.Validate(stored)
	broken := r.checker.CheckCreate(stored)
	switch {
	case len(broken) > 0 && len(errs) == 0:
		t.Fatalf("%s (seed 5) breaks %v, which the apiserver allows on create\n%s", what, broken, jsonvalue.Canonical(obj))
	case len(broken) == 0 && len(errs) > 0:
		t.Fatalf("%s (seed 5) is invalid: %v\n%s", what, errs, jsonvalue.Canonical(obj))
	}
}

// TestNoDuplicatesAfterMutation checks that the generator, which removes
// duplicates only along the path it changed, leaves none anywhere: removing
// them from the whole new object changes nothing. The examples have
// list-maps and sets inside list-map items; the kueue Workload, when the
// corpus is present, has dozens of list-maps in pod templates. 3,000
// pairs each (1,000 under -short), a third of that for the Workload.
func TestNoDuplicatesAfterMutation(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	pairs := 3000
	if testing.Short() {
		pairs = 1000
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			checkNoDuplicates(t, exampleVersion(t, file), pairs)
		})
	}
	t.Run("kueue-workload", func(t *testing.T) {
		checkNoDuplicates(t, workloadVersion(t), pairs/3)
	})
}

func checkNoDuplicates(t *testing.T, r *testedVersion, pairs int) {
	t.Helper()
	g := New(r.s, 9)
	for i := 0; i < pairs; i++ {
		old, new := g.Next()
		for _, obj := range []map[string]interface{}{old, new} {
			want := jsonvalue.Canonical(obj)
			if got := jsonvalue.Canonical(dedupeAll(jsonvalue.CopyMap(obj), g.root)); got != want {
				t.Fatalf("pair %d (seed 9) has a duplicate set item or list-map key:\n%s", i, want)
			}
		}
	}
}
