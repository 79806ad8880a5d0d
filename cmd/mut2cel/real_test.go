package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/testkit/golden"
)

// TestRealDeclarations translates the declarations of testdata/real on the
// corpus CRDs as a user would, and compares the exit status and every
// line printed with testdata/real/NAME.stderr. Each line stays short
// enough to read (300 characters): long lists belong behind -v. -short
// translates a sample.
func TestRealDeclarations(t *testing.T) {
	cases := corpus.Sample(corpus.Cases(t), 5)
	docs := make([][]byte, len(cases))
	for i, c := range cases {
		data, err := yaml.Marshal(c.Declared(t))
		if err != nil {
			t.Fatal(err)
		}
		docs[i] = data
	}
	goldenDir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "real"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	for i, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			data := docs[i]
			// The file is named relative to the working directory: its
			// name is part of every line, and so of where long lines wrap.
			file := c.Name + ".yaml"
			if err := os.WriteFile(filepath.Join(dir, file), data, 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"translate"}
			if c.KubeVersion != "" {
				args = append(args, "--kube-version", c.KubeVersion)
			}
			if c.AllVersions {
				args = append(args, "--all-versions")
			}
			args = append(args, file)
			var stdout, stderr bytes.Buffer
			code := run(args, nil, &stdout, &stderr)
			got := fmt.Sprintf("exit %d\n%s", code, stderr.String())
			golden.Check(t, filepath.Join(goldenDir, c.Name+".stderr"), []byte(got))
			for _, line := range strings.Split(stderr.String(), "\n") {
				if n := len(line); n > 300 {
					t.Errorf("a line of %d characters: %s", n, line)
				}
			}
		})
	}
}
