package batch

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestCollectNoManifests gives Collect paths that hold no manifest, next
// to one that does, and an empty standard input, which is one more input
// without manifests, as an empty file is.
func TestCollectNoManifests(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"docs/README.md":      "Not a manifest.\n",
		"docs/.hidden/x.yaml": "kind: Hidden\n",
		"empty/a.yaml":        "",
		"empty/b.yml":         "# a comment\n---\n",
		"blank.json":          " \n",
		"crds/x.yaml":         "# a comment\nkind: ConfigMap\n",
	} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, path, content, 0o644)
	}
	if err := os.Mkdir(filepath.Join(dir, "nothing"), 0o755); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, p := range []string{"nothing", "docs", "empty", "blank.json", "crds"} {
		paths = append(paths, filepath.Join(dir, p))
	}
	inputs, diags := Collect(append(paths, "-"), strings.NewReader(""))
	var got []string
	for _, d := range diags {
		got = append(got, d.String())
	}
	want := []string{
		"no manifests found in " + paths[0] + ": it has no *.yaml, *.yml or *.json file (hidden directories are skipped)",
		"no manifests found in " + paths[1] + ": it has no *.yaml, *.yml or *.json file (hidden directories are skipped)",
		"no manifests found in " + paths[2] + ": its *.yaml, *.yml and *.json files hold no document",
		"no manifests found in " + paths[3] + ": it holds no YAML or JSON document",
		"no manifests found in <stdin>: it holds no YAML or JSON document",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Collect diagnostics = %q\nwant %q", got, want)
	}
	var names []string
	for _, in := range inputs {
		names = append(names, in.Name)
	}
	wantNames := []string{filepath.Join(dir, "empty/a.yaml"), filepath.Join(dir, "empty/b.yml"), paths[3], filepath.Join(dir, "crds/x.yaml"), StdinName}
	if !reflect.DeepEqual(names, wantNames) {
		t.Errorf("Collect inputs = %q, want %q", names, wantNames)
	}
}
