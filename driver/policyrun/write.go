package policyrun

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mut2cel/mut2cel/driver/batch"
)

// KustomizationName is the file Write lists the policies in.
const KustomizationName = "kustomization.yaml"

// Write writes files and their kustomization into dir, creating it,
// each file atomically with mode 0644. A file there that mut2cel policy
// did not write (no Header) is not replaced; the files of an earlier run
// that this one does not write are removed, so that the kustomization and
// the directory agree. It returns the paths written, the kustomization
// last.
func Write(dir string, files []File) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	ours := func(path string) func(old []byte) error {
		return func(old []byte) error {
			if !bytes.HasPrefix(old, []byte(Header)) {
				return fmt.Errorf("%s exists and was not written by mut2cel policy; remove it or choose another directory", path)
			}
			return nil
		}
	}
	// Check every name before writing any, so that a refusal leaves the
	// directory as it was.
	all := append(append([]File(nil), files...), File{Name: KustomizationName, Data: Kustomization(files)})
	for _, f := range all {
		path := filepath.Join(dir, f.Name)
		if old, err := os.ReadFile(path); err == nil {
			if err := ours(path)(old); err != nil {
				return nil, err
			}
		}
	}
	var written []string
	for _, f := range all {
		path := filepath.Join(dir, f.Name)
		if err := batch.WriteFileChecked(path, f.Data, 0o644, ours(path)); err != nil {
			return written, err
		}
		written = append(written, path)
	}
	return written, removeStale(dir, all)
}

// removeStale removes the YAML files of dir that mut2cel policy wrote
// and that files no longer has.
func removeStale(dir string, files []File) error {
	keep := map[string]bool{}
	for _, f := range files {
		keep[f.Name] = true
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var stale []string
	for _, e := range entries {
		name := e.Name()
		if keep[name] || !e.Type().IsRegular() || !strings.HasSuffix(name, ".yaml") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err == nil && bytes.HasPrefix(data, []byte(Header)) {
			stale = append(stale, name)
		}
	}
	sort.Strings(stale)
	for _, name := range stale {
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}
