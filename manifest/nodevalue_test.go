package manifest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/corpus"
)

// TestNodeValue holds the value read from the node tree to the one
// kubectl's YAML 1.1 reading gives, on every document of every YAML file
// of the repository and of the corpus, and counts how many documents the
// node tree reads alone: the fast path must be the common one, and must
// never differ.
func TestNodeValue(t *testing.T) {
	files := repositoryYAML(t)
	if dir, err := filepath.Abs("../../shared/corpus"); err == nil {
		if _, err := os.Stat(dir); err == nil {
			files = append(files, corpus.Files(t)...)
		}
	}
	fast, docs := 0, 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(file, data)
		if err != nil {
			continue // the files of failing cases
		}
		for _, d := range f.Docs {
			if d.root == nil {
				continue
			}
			docs++
			got, ok := nodeValue(d.root)
			if !ok {
				continue
			}
			fast++
			want, err := decodeYAML(d.data)
			if err != nil {
				t.Errorf("%s: the node tree reads a document YAML 1.1 refuses: %v", file, err)
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: the node tree reads a document otherwise than YAML 1.1", file)
			}
		}
	}
	if docs == 0 || fast*10 < docs*9 {
		t.Errorf("the node tree read %d of %d documents alone; want nine in ten or more", fast, docs)
	}
	t.Logf("%d of %d documents read from the node tree alone", fast, docs)
}

// repositoryYAML lists the YAML files of the repository.
func repositoryYAML(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir("..", func(p string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == ".git" || strings.HasPrefix(d.Name(), ".")) && p != "..":
			return filepath.SkipDir
		case !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")):
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
