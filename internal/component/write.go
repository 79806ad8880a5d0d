package component

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mut2cel/mut2cel/internal/batch"
)

// WriteFile writes a kustomization that Kustomization made to path,
// creating its directory, atomically and with mode 0644, as a file for
// kustomize and for review. A file at path that does not start with
// Header is someone's own kustomization: it is not replaced, nor is one
// written meanwhile by another process (batch.WriteFileChecked).
func WriteFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return batch.WriteFileChecked(path, data, 0o644, func(old []byte) error {
		if !bytes.HasPrefix(old, []byte(Header)) {
			return fmt.Errorf("%s exists and was not written by mut2cel patch; remove it or choose another --dir", path)
		}
		return nil
	})
}
