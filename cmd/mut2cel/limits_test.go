package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/internal/limits"
)

// endless is a standard input that never ends, as /dev/zero.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestLimitsExit runs every command that reads manifests on inputs past
// the limits of docs/limits.md: each stops with exit 2 and a message
// naming the input and the limit, and -w leaves the file as it was.
func TestLimitsExit(t *testing.T) {
	dir := t.TempDir()
	dense := filepath.Join(dir, "dense.yaml")
	content := "a: [" + strings.Repeat("0,", limits.Values/2) + "0]\n"
	writeFile(t, dense, content)
	for _, args := range [][]string{
		{"translate"}, {"translate", "-w"}, {"translate", "--check"}, {"patch", "--dir", filepath.Join(dir, "out")}, {"cost"}, {"verify", "-q"},
	} {
		for _, in := range []struct {
			path  string
			stdin io.Reader
			want  string
		}{
			{"-", endless{}, "<stdin>: it is larger than 64 MiB, the most mut2cel reads in one run (docs/limits.md)"},
			{dense, strings.NewReader(""), dense + ": it holds more than 2,000,000 values (mapping keys and values, list items), the most mut2cel reads in one run (docs/limits.md)"},
		} {
			if in.path == "-" && args[len(args)-1] == "-w" {
				continue // standard input cannot be rewritten: a usage error
			}
			var stderr strings.Builder
			argv := append(args[:len(args):len(args)], in.path)
			if code := run(argv, in.stdin, io.Discard, &stderr); code != exitError || !strings.Contains(stderr.String(), in.want) {
				t.Errorf("run(%q) = %d, stderr:\n%s\nwant %d and %q", argv, code, stderr.String(), exitError, in.want)
			}
		}
	}
	if data, err := os.ReadFile(dense); err != nil || string(data) != content {
		t.Errorf("translate -w changed %s (%v)", dense, err)
	}
}
