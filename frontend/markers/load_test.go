package markers

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/decl"
)

// TestLoad reads testdata/api, which reaches schema paths in every way Go
// types do, and checks each declaration's path, value and marker line.
func TestLoad(t *testing.T) {
	r, err := Load("testdata", "./api/...")
	if err != nil {
		t.Fatal(err)
	}
	file := "testdata/api/v1/types.go"
	want := []string{
		"widgets.markers.example.com v1 (" + file + ":19)",
		".spec.aliased x-kubernetes-update: [NoModify] " + file + ":82",                         // on the type, through an alias
		".spec.class x-kubernetes-mutability: Immutable " + file + ":19",                        // a field
		".spec.inlined x-kubernetes-mutability: Immutable " + file + ":67",                      // a field of an inline struct
		".spec.labels x-kubernetes-key-mutability: Immutable " + file + ":34",                   // a map
		".spec.labels[*] x-kubernetes-update: [NoModify] " + file + ":35",                       // eachVal on a map
		".spec.owner x-kubernetes-mutability: AddOnly " + file + ":22",                          // a pointer
		".spec.ports x-kubernetes-key-mutability: AddOnly " + file + ":38",                      // a list-map
		".spec.ports[*].number x-kubernetes-update: [NoSet, NoUnset, NoModify] " + file + ":61", // a field of list items
		".spec.quota.limit x-kubernetes-update: [NoUnset] testdata/shared/types.go:7",           // in a package not loaded as a root
		".spec.ref x-kubernetes-mutability: Immutable " + file + ":73",                          // on the type of a field
		".spec.region x-kubernetes-update: [NoUnset, NoModify] " + file + ":30",                 // two +k8s:update lines
		".spec.sizes[*] x-kubernetes-update: [NoModify] " + file + ":43",                        // eachVal on a list
		".spec.zone x-kubernetes-update: [NoSet, NoUnset, NoModify] " + file + ":26",
	}
	var got []string
	for _, s := range r.Sets {
		got = append(got, fmt.Sprintf("%s %s (%s)", s.CRD, s.Versions[0].Name, s.Source))
		for _, f := range s.Fields {
			for ext, v := range f.Values {
				got = append(got, fmt.Sprintf("%s %s: %s %s", f.Path, ext, v, f.Source))
			}
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Load(testdata/api) =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var immutable []string
	for _, f := range r.Immutable {
		immutable = append(immutable, fmt.Sprintf("%s %s %s inline=%v %s", f.CRD, f.Version, f.Path, f.Inline, f.Source))
	}
	wantImmutable := []string{
		"widgets.markers.example.com v1 .spec.ports[*].number inline=false " + file + ":61",
		"widgets.markers.example.com v1 .spec.zone inline=false " + file + ":26",
	}
	if strings.Join(immutable, "\n") != strings.Join(wantImmutable, "\n") {
		t.Errorf("Load(testdata/api).Immutable =\n%s\nwant\n%s", strings.Join(immutable, "\n"), strings.Join(wantImmutable, "\n"))
	}
}

// TestLoadErrors checks that every bad marker is reported at its Go file
// and line, all of them at once.
func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		want    []string
	}{
		{"./bad/...", []string{
			"testdata/bad/v1/types.go:17: +immutable=Sometimes: want +immutable, +immutable=AddOnly or +immutable=RemoveOnly",
			"testdata/bad/v1/types.go:20: +k8s:update=NoSet,NoModify: one constraint per marker, as validation-gen reads them: write one +k8s:update line for each",
			"testdata/bad/v1/types.go:23: +k8s:update=Never: unknown constraint \"Never\": supported: NoSet, NoUnset, NoModify, NoAddItem, NoRemoveItem",
			"testdata/bad/v1/types.go:26: +k8s:immutable takes no value (it means +k8s:update=NoSet, NoUnset and NoModify together)",
			"testdata/bad/v1/types.go:29: +k8s:eachVal=+k8s:update=NoSet: does not apply to an entry, attach +k8s:update=NoAddItem or NoRemoveItem to the list or map itself (an entry that appears or goes is a key of its collection)",
			"testdata/bad/v1/types.go:32: +k8s:item(name: \"x\"): mut2cel cannot declare on one entry or on a field chosen from outside: put the marker on the field itself, or +k8s:eachVal on the list for every entry",
			"testdata/bad/v1/types.go:35: +immutable-keys=Never: want +immutable-keys, +immutable-keys=AddOnly or +immutable-keys=RemoveOnly",
		}},
		// go list, run in testdata/badimport, wrote v1/types.go.
		{"./badimport/...", []string{
			"testdata/badimport/v1/types.go:7: no required module provides package nonexistent.example/foo; to add it:\n\tgo get nonexistent.example/foo",
		}},
		{"./conflict/...", []string{
			"testdata/conflict/v1/types.go:22: version v1: .spec.ref: x-kubernetes-mutability: Immutable here, but AddOnly at testdata/conflict/v1/types.go:17: keep one",
		}},
	} {
		_, err := Load("testdata", tc.pattern)
		var errs decl.Errors
		if !errors.As(err, &errs) {
			t.Errorf("Load(%s) = %v, want decl.Errors", tc.pattern, err)
			continue
		}
		var got []string
		for _, e := range errs {
			got = append(got, e.Error())
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("Load(%s) errors =\n%s\nwant\n%s", tc.pattern, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// TestLoadVersions reads a kind served in two versions from two packages:
// each version gets the declarations of its own package.
func TestLoadVersions(t *testing.T) {
	r, err := Load("testdata", "./versions/...")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range r.Sets {
		for _, f := range s.Fields {
			for ext, v := range f.Values {
				got = append(got, fmt.Sprintf("%s %s %s %s: %s %s", s.CRD, s.Versions[0].Name, f.Path, ext, v, f.Source))
			}
		}
	}
	want := []string{
		"gizmoes.versions.example.com v1 .spec.class x-kubernetes-mutability: Immutable testdata/versions/v1/types.go:17",
		"gizmoes.versions.example.com v2 .spec.class x-kubernetes-mutability: Immutable testdata/versions/v2/types.go:18",
		"gizmoes.versions.example.com v2 .spec.size x-kubernetes-update: [NoModify] testdata/versions/v2/types.go:21",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Load(testdata/versions) =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLoadNestedModule reads "./nested/...", which holds a nested module
// with a bad marker: as in go list, the pattern stops at the nested
// module, so its marker is not read.
func TestLoadNestedModule(t *testing.T) {
	r, err := Load("testdata", "./nested/...")
	if err != nil {
		t.Fatalf("Load(./nested/...) = %v, want the outer module's package only", err)
	}
	if len(r.Sets) != 1 || r.Sets[0].CRD != "nests.nested.example.com" {
		t.Errorf("Load(./nested/...) = %v, want the set of nests.nested.example.com", r.Sets)
	}
}

// TestLoadOutsideModule loads "./..." in a directory that no go.mod puts
// in a module, with a nested module below it: the loader must refuse at
// once, naming the directory, rather than walk the tree for modules.
func TestLoadOutsideModule(t *testing.T) {
	dir := t.TempDir()
	if inModule(dir) == nil {
		t.Skipf("%s is inside a Go module", dir)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.MkdirAll(filepath.Join(sub, "v1"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"go.mod":      "module example.com/sub\n\ngo 1.26\n",
		"v1/types.go": "package v1\n\n// +immutable=Sometimes\ntype T struct{}\n",
	} {
		if err := os.WriteFile(filepath.Join(sub, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, pattern := range []string{"./...", dir + "/...", "."} {
		_, err := Load(dir, pattern)
		want := pattern + ": " + dir + " is not in a Go module (no go.mod in it or any directory above)"
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Load(%s, %s) = %v, want %q...", dir, pattern, err, want)
		}
	}
}

// TestLoadFormats reads the modifier +mut2cel:formats beside the markers
// it modifies, on a type and on a field.
func TestLoadFormats(t *testing.T) {
	r, err := Load("testdata", "./formats/...")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range r.Sets {
		for _, f := range s.Fields {
			for _, ext := range []string{decl.ExtMutability, decl.ExtUpdate, decl.ExtFormats} {
				if v, ok := f.Values[ext]; ok {
					got = append(got, fmt.Sprintf("%s %s: %s %s", f.Path, ext, v, f.Source))
				}
			}
		}
	}
	file := "testdata/formats/v1/types.go"
	want := []string{
		".spec x-kubernetes-mutability: Immutable " + file + ":17",
		".spec x-mut2cel-formats: CompareAsValues " + file + ":18",
		".spec.since x-kubernetes-update: [NoModify] " + file + ":23",
		".spec.since x-mut2cel-formats: CompareAsValues " + file + ":24",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Load(testdata/formats) =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
