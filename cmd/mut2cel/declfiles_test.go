package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/translate"
)

// documented declares what the authors of three corpus CRDs document.
const documented = "../../examples/declarations/documented.yaml"

// TestDeclarationsFileOnCorpus drives translate, patch and verify with the
// shipped declarations file on the published CRDs it names, as a user
// of CRDs they do not own would: translate and verify succeed with no
// disagreement, the kustomize build of the published CRD with the
// component equals the translation, and verify --against the published
// CRD fails exactly where its hand-written rules fall short of the
// documented intent.
func TestDeclarationsFileOnCorpus(t *testing.T) {
	dir := corpus.Dir(t)
	data, err := os.ReadFile(documented)
	if err != nil {
		t.Fatal(err)
	}
	sets, err := decl.ParseFile(documented, data)
	if err != nil {
		t.Fatal(err)
	}
	type documentedCRD struct {
		file          string
		versions      int
		publishedFall bool // the published rules allow what the declarations deny
	}
	for _, c := range corpus.Sample([]documentedCRD{
		// kueue and Karpenter publish rules that already mean exactly
		// what they document.
		{"kueue/kueue.x-k8s.io_workloads.yaml", 2, false},
		{"karpenter/karpenter.sh_nodepools.yaml", 1, false},
		// "immutable once set" is published as self == oldSelf on the
		// map, which lets it be removed, and set again in a later update.
		{"external-snapshotter/groupsnapshot.storage.k8s.io_volumegroupsnapshotclasses.yaml", 3, true},
	}, 1) {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			path := filepath.Join(dir, c.file)
			published, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			code, out, errOut := runCLI("translate", "--declarations", documented, path)
			if code != exitOK {
				t.Fatalf("translate: exit %d: %s", code, errOut)
			}
			if want := ": warning: 2 documents declare for CRDs not in the inputs (lines "; strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, want) {
				t.Errorf("translate printed %q; want one warning about the file's two other CRDs", errOut)
			}
			checkComponentWith(t, path, published, published, []byte(out), translate.Options{Declarations: sets})

			code, out, errOut = runCLI("verify", "-q", "--pairs", "1500", "--declarations", documented, path)
			if code != exitOK || strings.Count(out, ", no disagreement;") != c.versions {
				t.Errorf("verify: exit %d, want %d versions with no disagreement:\n%s%s", code, c.versions, out, errOut)
			}
			code, out, _ = runCLI("verify", "-q", "--pairs", "1500", "--counterexamples", "1", "--declarations", documented, "--against", path, path)
			if fails := code == exitFinding; fails != c.publishedFall {
				t.Errorf("verify --against the published CRD: exit %d, want failing=%v:\n%s", code, c.publishedFall, out)
			}
		})
	}
}

func runCLI(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}
