package translate_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/mut2cel/mut2cel/manifest"
	"github.com/mut2cel/mut2cel/testkit/golden"
	"github.com/mut2cel/mut2cel/translate"
)

// goldenDir is where the translations of the examples at target v live: the
// default target's next to the examples, for users to read, the others with
// the test data.
func goldenDir(v translate.KubeVersion) string {
	if v == translate.DefaultKubeVersion {
		return filepath.Join("..", "examples", "translated")
	}
	return filepath.Join("..", "testdata", "golden", v.String())
}

// TestGolden pins the exact translation of every shipped example at the
// default target and at 1.33 (which switches index comparisons to
// two-variable comprehensions), and so keeps examples/translated current. A
// change to a golden file needs a reason in the commit message.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, v := range []translate.KubeVersion{translate.DefaultKubeVersion, {Major: 1, Minor: 33}} {
		for _, file := range files {
			name := filepath.Join(goldenDir(v), filepath.Base(file))
			t.Run(name, func(t *testing.T) {
				got := translateFile(t, file, v)
				golden.Check(t, name, got)
				// Translating the output again changes nothing.
				if again := translateBytes(t, name, got, v); !bytes.Equal(again, got) {
					t.Errorf("translating %s again changed it", name)
				}
			})
		}
	}
}

func translateFile(t *testing.T, file string, v translate.KubeVersion) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return translateBytes(t, file, data, v)
}

func translateBytes(t *testing.T, name string, data []byte, v translate.KubeVersion) []byte {
	t.Helper()
	f, err := manifest.Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Docs {
		doc := d.Value()
		if doc == nil || !translate.IsCRD(doc) {
			continue
		}
		res, err := translate.Translate(doc, translate.Options{KubeVersion: v})
		if err != nil {
			t.Fatalf("Translate(%s): %v", name, err)
		}
		if err := d.Apply(res.Edits); err != nil {
			t.Fatalf("Apply(%s): %v", name, err)
		}
	}
	return f.Bytes()
}
