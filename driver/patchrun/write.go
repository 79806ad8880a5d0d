package patchrun

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mut2cel/mut2cel/backend/kustomize"
	"github.com/mut2cel/mut2cel/driver/batch"
)

// kustomizationNames are the names kustomize reads a directory's
// kustomization from, in its order (konfig's
// RecognizedKustomizationFileNames). kustomize refuses a directory that
// holds more than one.
var kustomizationNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// writeChecked is batch.WriteFileChecked; tests make it fail, as a full
// disk does.
var writeChecked = batch.WriteFileChecked

// Write writes a kustomization that kustomize.Kustomization made into dir, creating
// dir, atomically and with mode 0644, as a file for kustomize and for
// review, and returns the file's path. The file is the kustomization dir
// has, under whichever name kustomize reads it by, or else
// dir/kustomization.yaml: a second one beside it would make kustomize
// refuse the directory. A kustomization that does not start with kustomize.Header
// is someone's own: it is not replaced, nor is one written meanwhile by
// another process (batch.WriteFileChecked). If the write fails, the
// directories Write created are removed again.
func Write(dir string, data []byte) (string, error) {
	path, err := kustomizationFile(dir)
	if err != nil {
		return "", err
	}
	created, err := mkdirAll(dir)
	if err == nil {
		err = writeChecked(path, data, 0o644, func(old []byte) error {
			if !bytes.HasPrefix(old, []byte(kustomize.Header)) {
				return fmt.Errorf("%s exists and was not written by mut2cel patch; remove it or choose another directory", path)
			}
			return nil
		})
	}
	if err != nil {
		for i := len(created) - 1; i >= 0; i-- {
			os.Remove(created[i]) // empty, unless someone else wrote there meanwhile
		}
		return "", err
	}
	return path, nil
}

// kustomizationFile returns the kustomization file of dir: the one that
// exists, or kustomization.yaml when there is none.
func kustomizationFile(dir string) (string, error) {
	var found []string
	for _, name := range kustomizationNames {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			found = append(found, name)
		}
	}
	switch len(found) {
	case 0:
		return filepath.Join(dir, kustomizationNames[0]), nil
	case 1:
		return filepath.Join(dir, found[0]), nil
	}
	return "", fmt.Errorf("%s holds %s: kustomize reads one kustomization a directory and refuses this one; keep one, or choose another directory",
		dir, strings.Join(found, " and "))
}

// mkdirAll makes dir and its missing parents, like os.MkdirAll, and
// returns those it created, outermost first.
func mkdirAll(dir string) ([]string, error) {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		missing = append([]string{d}, missing...)
		if filepath.Dir(d) == d {
			break
		}
	}
	var created []string
	for _, d := range missing {
		if err := os.Mkdir(d, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return created, err
		} else if err == nil {
			created = append(created, d)
		}
	}
	return created, nil
}
