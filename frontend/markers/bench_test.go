package markers

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkLoadManyFields reads a kind whose spec has n marked fields, all
// in one file: finding each marker's line must not scan the file's
// comments once per field (30,000 fields took 34 s that way).
func BenchmarkLoadManyFields(b *testing.B) {
	for _, n := range []int{1000, 4000, 16000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := manyFields(b, n)
			for b.Loop() {
				r, err := Load(dir, "./...")
				if err != nil {
					b.Fatal(err)
				}
				if got := len(r.Sets[0].Fields); got != n {
					b.Fatalf("Load = %d fields, want %d", got, n)
				}
			}
		})
	}
}

// manyFields writes a package with one kind whose spec has n fields, each
// marked +immutable. It lives under testdata, inside this module, so that
// it imports apimachinery as the module does; it is removed at the end.
func manyFields(tb testing.TB, n int) string {
	tb.Helper()
	dir, err := os.MkdirTemp("testdata", "many-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	var src strings.Builder
	src.WriteString(`// +groupName=many.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type Many struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `
	Spec ManySpec ` + "`json:\"spec\"`" + `
}

type ManySpec struct {
`)
	for i := range n {
		fmt.Fprintf(&src, "\t// +immutable\n\tF%d string `json:\"f%d\"`\n", i, i)
	}
	src.WriteString("}\n")
	if err := os.MkdirAll(filepath.Join(dir, "v1"), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "v1", "types.go"), []byte(src.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir
}
