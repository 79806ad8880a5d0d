// Package corpus gives tests the real-world CRDs kept next to the
// repository, in ../shared/corpus (see its README for their sources). They
// are never copied into the repository, so a clone without them skips the
// tests that need them.
package corpus

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// Dir returns the corpus directory, skipping the test when it is absent.
func Dir(tb testing.TB) string {
	tb.Helper()
	root, err := moduleRoot()
	if err != nil {
		tb.Fatal(err)
	}
	dir := filepath.Join(root, "..", "shared", "corpus")
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("real-world CRD corpus not found at %s (it sits next to the repository as ../shared/corpus): %v", dir, err)
	}
	return dir
}

// Files returns the corpus's manifest files (*.yaml, *.yml, *.json) in
// lexical order.
func Files(tb testing.TB) []string {
	tb.Helper()
	var files []string
	err := filepath.WalkDir(Dir(tb), func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".json")) {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

// Document is one CustomResourceDefinition document of the corpus.
type Document struct {
	File  string
	Index int // the document's position in File, from 0
	Name  string
	Doc   map[string]interface{}
}

// CRDs decodes every apiextensions.k8s.io/v1 CRD of the corpus.
func CRDs(tb testing.TB) []Document {
	tb.Helper()
	var crds []Document
	for _, file := range Files(tb) {
		data, err := os.ReadFile(file)
		if err != nil {
			tb.Fatal(err)
		}
		docs, err := split(data)
		if err != nil {
			tb.Fatalf("%s: %v", file, err)
		}
		for i, d := range docs {
			var doc map[string]interface{}
			if err := yaml.Unmarshal(d, &doc); err != nil {
				tb.Fatalf("%s: document %d: %v", file, i+1, err)
			}
			if doc["kind"] != "CustomResourceDefinition" || doc["apiVersion"] != "apiextensions.k8s.io/v1" {
				continue
			}
			name, _ := doc["metadata"].(map[string]interface{})["name"].(string)
			crds = append(crds, Document{File: file, Index: i, Name: name, Doc: doc})
		}
	}
	return crds
}

func split(data []byte) ([][]byte, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var docs [][]byte
	for {
		d, err := r.Read()
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(d)) > 0 {
			docs = append(docs, d)
		}
	}
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the working directory")
		}
		dir = parent
	}
}
