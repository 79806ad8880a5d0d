//go:build unix

package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNotRegularFiles runs every command on a named pipe that no one
// writes, given by name or found in a directory, as input, --against or
// --declarations: each exits 2 naming the pipe, at once, where reading
// it blocked forever. Standard input may still be a pipe.
func TestNotRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo, folder := filepath.Join(dir, "fifo.yaml"), filepath.Join(dir, "crds")
	mkdir(t, folder)
	for _, p := range []string{fifo, filepath.Join(folder, "z.yaml")} {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
	}
	crd, err := os.ReadFile("testdata/crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(folder, "crd.yaml"), string(crd))
	for _, args := range [][]string{
		{"translate", fifo},
		{"translate", "-w", fifo},
		{"translate", "-w", folder},
		{"translate", "--check", folder},
		{"translate", "--declarations", fifo, "testdata/crd.yaml"},
		{"patch", "--dir", filepath.Join(dir, "out"), folder},
		{"cost", fifo},
		{"verify", "-q", "--pairs", "10", folder},
		{"verify", "-q", "--pairs", "10", "--against", fifo, "testdata/crd.yaml"},
	} {
		t.Run(strings.ReplaceAll(strings.Join(args, " "), dir+"/", ""), func(t *testing.T) {
			var stderr strings.Builder
			code := make(chan int, 1)
			go func() { code <- run(args, strings.NewReader(""), io.Discard, &stderr) }()
			select {
			case c := <-code:
				if c != exitError || !strings.Contains(stderr.String(), ": a named pipe (FIFO), not a regular file") {
					t.Errorf("exit %d, stderr:\n%s\nwant 2 and the pipe named", c, stderr.String())
				}
			case <-time.After(10 * time.Second):
				t.Fatal("blocked on the named pipe")
			}
		})
	}
	if got, _ := os.ReadFile(filepath.Join(folder, "crd.yaml")); string(got) != string(crd) {
		t.Errorf("translate -w wrote crd.yaml beside the pipe")
	}
	var stdout strings.Builder
	if code := run([]string{"translate", "-"}, strings.NewReader(string(crd)), &stdout, io.Discard); code != exitOK || stdout.Len() == 0 {
		t.Errorf("translate - = %d, want 0 and the translation", code)
	}
}
