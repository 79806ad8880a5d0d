//go:build unix

package batch

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCollectNotRegular gives Collect a named pipe no one writes, by name
// and inside a directory (by name and through a symbolic link), and a
// device: each is refused, named, before a byte is read (reading would
// block, or never end), and the directory's manifest is still read.
func TestCollectNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo, inDir := filepath.Join(dir, "fifo.yaml"), filepath.Join(dir, "crds")
	if err := os.Mkdir(inDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, filepath.Join(inDir, "b-fifo.yaml")} {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
	}
	if err := os.Symlink("../fifo.yaml", filepath.Join(inDir, "c-link.yaml")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(inDir, "a.yaml"), "kind: ConfigMap\n", 0o644)
	done := make(chan struct{})
	var inputs []Input
	var diags []Diagnostic
	go func() {
		inputs, diags = Collect([]string{fifo, inDir, "/dev/zero"}, strings.NewReader(""))
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Collect blocks on a named pipe")
	}
	const hint = ", not a regular file: mut2cel reads only regular files; to read a pipe or a device, give it as standard input (-)"
	want := []string{
		fifo + ": a named pipe (FIFO)" + hint,
		filepath.Join(inDir, "b-fifo.yaml") + ": a named pipe (FIFO)" + hint,
		filepath.Join(inDir, "c-link.yaml") + ": a named pipe (FIFO)" + hint,
		"/dev/zero: a character device" + hint,
	}
	if got := diagStrings(diags); !reflect.DeepEqual(got, want) {
		t.Errorf("Collect diagnostics = %q\nwant %q", got, want)
	}
	if len(inputs) != 1 || inputs[0].Name != filepath.Join(inDir, "a.yaml") {
		t.Errorf("Collect inputs = %v, want only crds/a.yaml", inputs)
	}
}

// TestReadDeclarationsNotRegular: a declarations file that is a named
// pipe is refused as an input is.
func TestReadDeclarationsNotRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "decl.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	_, diags := ReadDeclarations([]string{fifo})
	want := "--declarations: open " + fifo + ": a named pipe (FIFO), not a regular file: mut2cel reads only regular files"
	if got := diagStrings(diags); len(got) != 1 || got[0] != want {
		t.Errorf("ReadDeclarations = %q, want %q", got, want)
	}
}
