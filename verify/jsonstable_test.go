package verify

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
	"github.com/mut2cel/mut2cel/verify/pairgen"
)

func TestJSONStableCases(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    interface{}
		want bool
	}{
		{"object", map[string]interface{}{"a": []interface{}{"x", true, nil, int64(1 << 60)}}, true},
		{"non-ASCII", map[string]interface{}{"é": "ü\u2028<&>"}, true},
		{"integral float", map[string]interface{}{"a": float64(1)}, false},
		{"fraction", []interface{}{1.5}, false},
		{"Go int", []interface{}{1}, false},
		{"invalid UTF-8 value", []interface{}{"a\xffb"}, false},
		{"invalid UTF-8 key", map[string]interface{}{"a\xff": "b"}, false},
	} {
		if got := jsonStable(tc.v); got != tc.want {
			t.Errorf("%s: jsonStable = %v, want %v", tc.name, got, tc.want)
		}
		if !tc.want {
			continue
		}
		back, err := kube.RoundTrip(map[string]interface{}{"v": tc.v})
		if err != nil || !reflect.DeepEqual(back["v"], tc.v) {
			t.Errorf("%s: the round trip gives %#v, %v", tc.name, back["v"], err)
		}
	}
}

// TestJSONStableObjects checks, on the stored old objects of every
// example, that a value jsonStable accepts is its own round trip, and
// that both kinds of object occur.
func TestJSONStableObjects(t *testing.T) {
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	stable, unstable := 0, 0
	for _, file := range files {
		r := exampleRun(t, file)
		g := pairgen.New(r.s, 3)
		for i := 0; i < 1000; i++ {
			old, new := g.Next()
			for _, obj := range []map[string]interface{}{old, new} {
				stored := kube.Store(r.s, jsonvalue.CopyMap(obj))
				back, err := kube.RoundTrip(stored)
				if err != nil {
					t.Fatal(err)
				}
				if !jsonStable(stored) {
					unstable++
					continue
				}
				stable++
				if !reflect.DeepEqual(back, stored) {
					t.Fatalf("%s, pair %d: jsonStable holds but the round trip changes\n%s\ninto\n%s", file, i, jsonvalue.Canonical(stored), jsonvalue.Canonical(back))
				}
			}
		}
	}
	if stable < 1000 || unstable < 100 {
		t.Errorf("%d stable and %d unstable objects; the test needs many of both", stable, unstable)
	}
	t.Logf("%d stable, %d unstable", stable, unstable)
}
