package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// errFull is the error of a write to a full disk.
var errFull = errors.New("no space left on device")

// fullWriter fails every write, as /dev/full does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, errFull }

// shortWriter writes one byte of each write and says so, without error.
type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return min(len(p), 1), nil }

// TestOutputErrors runs every command that prints on standard output with
// an output that cannot be written: each exits 2 and says so once, where
// verify, translate -d and translate -w -o json exited 0 with their
// output lost.
func TestOutputErrors(t *testing.T) {
	dir := t.TempDir()
	crd := filepath.Join(dir, "crd.yaml")
	data, err := os.ReadFile("testdata/crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"translate", crd},
		{"translate", "-d", crd},
		{"translate", "--check", crd},
		{"translate", "--check", "-o", "json", crd},
		{"translate", "-w", "-o", "json", crd},
		{"cost", crd},
		{"cost", "-o", "json", crd},
		{"verify", "-q", "--pairs", "20", crd},
		{"verify", "-q", "--pairs", "20", "-o", "json", crd},
		{"verify", "-q", "--pairs", "20", "-o", "yaml", crd},
		{"help"},
		{"help", "translate"},
		{"translate", "--help"},
		{"version"},
		{"completion", "bash"},
	} {
		name := strings.ReplaceAll(strings.Join(args, " "), dir+"/", "")
		for _, w := range []struct {
			name   string
			stdout io.Writer
			err    string
		}{{"full", fullWriter{}, errFull.Error()}, {"short", shortWriter{}, io.ErrShortWrite.Error()}} {
			t.Run(name+"/"+w.name, func(t *testing.T) {
				writeFile(t, crd, string(data))
				var stderr strings.Builder
				code := run(args, strings.NewReader(""), w.stdout, &stderr)
				want := "mut2cel " + args[0] + ": cannot write to standard output: " + w.err + "\n"
				if code != exitError || !strings.HasSuffix(stderr.String(), want) || strings.Count(stderr.String(), "standard output") != 1 {
					t.Errorf("exit %d, stderr:\n%s\nwant 2 and, once, %q", code, stderr.String(), want)
				}
			})
		}
	}
}

// TestOutputToDevFull writes to /dev/full itself.
func TestOutputToDevFull(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	defer full.Close()
	var stderr strings.Builder
	if code := run([]string{"translate", "testdata/crd.yaml"}, nil, full, &stderr); code != exitError ||
		stderr.String() != "mut2cel translate: cannot write to standard output: write /dev/full: no space left on device\n" {
		t.Errorf("translate > /dev/full = %d, stderr %q; want 2 and the write error", code, stderr.String())
	}
}

// TestOutputNothingToWrite: a command that prints nothing does not fail
// for an output it would not have written to.
func TestOutputNothingToWrite(t *testing.T) {
	if code := run([]string{"translate", "-d", "../../examples/translated/gatewayclass.yaml"}, nil, fullWriter{}, io.Discard); code != exitOK {
		t.Errorf("translate -d of a translated file to a full output = %d, want 0", code)
	}
}
