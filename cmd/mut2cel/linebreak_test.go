package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLineBreaks runs the commands that edit manifests on a CRD whose
// comment holds the line breaks the YAML parser counts besides "\n": each
// made them crash (the layout code cut lines at "\n" alone).
func TestLineBreaks(t *testing.T) {
	crd, err := os.ReadFile("testdata/crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, br := range map[string]string{"CR": "\r", "NEL": "\u0085", "LS": "\u2028", "PS": "\u2029"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "crd.yaml")
			in := strings.Replace(string(crd), "\n", strings.Repeat(br+"# more", 40)+"\n", 1)
			writeFile(t, path, in)
			var stdout strings.Builder
			if code := run([]string{"translate", path}, nil, &stdout, io.Discard); code != exitOK || strings.Count(stdout.String(), br) != 40 {
				t.Errorf("translate = %d, with %d of the 40 breaks; want 0 and all of them", code, strings.Count(stdout.String(), br))
			}
			checkExit(t, []string{"translate", "--check", path}, exitFinding)
			checkExit(t, []string{"patch", "--dir", filepath.Join(dir, "out"), path}, exitOK)
			checkExit(t, []string{"translate", "-w", path}, exitOK)
			if out, _ := os.ReadFile(path); string(out) != stdout.String() {
				t.Errorf("translate -w wrote\n%q\nwant what translate prints\n%q", out, stdout.String())
			}
			checkExit(t, []string{"translate", "--check", path}, exitOK)
		})
	}
}
