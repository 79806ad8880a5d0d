package batch

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/internal/limits"
)

// zeros is a standard input that never ends, as /dev/zero.
type zeros struct{ read int }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.read += len(p)
	return len(p), nil
}

// TestCollectEndlessStdin reads a standard input that never ends: the run
// stops one byte past the limit, with a diagnostic, instead of reading
// until memory runs out.
func TestCollectEndlessStdin(t *testing.T) {
	z := &zeros{}
	inputs, diags := Collect(nil, z)
	want := []string{"<stdin>: it is larger than 64 MiB, the most mut2cel reads in one run (docs/limits.md)"}
	if got := diagStrings(diags); !reflect.DeepEqual(got, want) || len(inputs) != 0 {
		t.Errorf("Collect(endless stdin) = %d inputs, %q; want none, %q", len(inputs), got, want)
	}
	if z.read > limits.InputBytes+1<<20 {
		t.Errorf("Collect read %d bytes of an endless stdin, want at most the limit, %d, and a buffer", z.read, limits.InputBytes)
	}
}

// TestCollectValues gives Collect inputs dense with values: alone each is
// within the limit, together they pass it, and the run reads no input
// after the one that does.
func TestCollectValues(t *testing.T) {
	dir := t.TempDir()
	// A flow list of n items estimates at 2n values, one past half the limit.
	list := "a: [" + strings.Repeat("0,", limits.Values/4+1) + "0]\n"
	var paths []string
	for _, name := range []string{"a.yaml", "b.yaml", "c.yaml"} {
		paths = append(paths, filepath.Join(dir, name))
		writeFile(t, paths[len(paths)-1], list, 0o644)
	}
	inputs, diags := Collect(paths, strings.NewReader(""))
	want := []string{paths[1] + ": with the inputs before it, it holds more than 2,000,000 values (mapping keys and values, list items), the most mut2cel reads in one run (docs/limits.md)"}
	if got := diagStrings(diags); !reflect.DeepEqual(got, want) {
		t.Errorf("Collect diagnostics = %q, want %q", got, want)
	}
	if len(inputs) != 1 || inputs[0].Name != paths[0] {
		t.Errorf("Collect read %d inputs, want only %s", len(inputs), paths[0])
	}
	_, diags = Collect(paths[2:], strings.NewReader(""))
	if len(diags) != 0 {
		t.Errorf("Collect(%s) = %q, want no diagnostic: alone it is within the limit", paths[2], diagStrings(diags))
	}
}

// TestReadDeclarationsValues reads a declarations file past the limit on
// values: a diagnostic names it, before it is parsed.
func TestReadDeclarationsValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "decls.yaml")
	writeFile(t, path, "fields: ["+strings.Repeat("0,", limits.Values/2)+"0]\n", 0o644)
	_, diags := ReadDeclarations([]string{path})
	want := []string{"--declarations: " + path + ": it holds more than 2,000,000 values (mapping keys and values, list items), the most mut2cel reads in one run (docs/limits.md)"}
	if got := diagStrings(diags); !reflect.DeepEqual(got, want) {
		t.Errorf("ReadDeclarations = %q, want %q", got, want)
	}
}
