package infer

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/translate"
)

// TestCorpus infers every CRD of the corpus and checks that each
// proposal, sure or not, is a declaration decl.ParseFile reads, at a path
// every version it names has.
func TestCorpus(t *testing.T) {
	crds := corpus.CRDs(t)
	start := time.Now()
	results := make([]*Result, len(crds))
	models := make([]*crd.CRD, len(crds))
	for i, c := range crds {
		m, err := crd.Read(c.Doc)
		if err != nil {
			t.Fatalf("%s: %v", c.File, err)
		}
		models[i], results[i] = m, Infer(m)
	}
	var out bytes.Buffer
	if err := Write(&out, results, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	t.Logf("inferred %d CRDs in %v, %d bytes of declarations (BenchmarkInferCorpus measures it)", len(crds), took, out.Len())
	if _, err := decl.ParseFile("corpus.yaml", out.Bytes()); err != nil {
		t.Errorf("the declarations written do not read: %v", err)
	}
	for i, r := range results {
		checkResult(t, crds[i].File, models[i], r)
	}
}

// checkResult checks one CRD's proposals, the doubtful ones uncommented.
func checkResult(t *testing.T, file string, m *crd.CRD, r *Result) {
	t.Helper()
	if len(r.Proposals) == 0 {
		return
	}
	var out bytes.Buffer
	if err := Write(&out, []*Result{r}, WriteOptions{Uncommented: true}); err != nil {
		t.Fatal(err)
	}
	sets, err := decl.ParseFile(file, out.Bytes())
	if err != nil {
		t.Errorf("%s: uncommented, the proposals do not read: %v\n%s", file, err, out.String())
		return
	}
	for _, s := range sets {
		versions := r.Served
		if len(s.Versions) > 0 {
			versions = nil
			for _, v := range s.Versions {
				versions = append(versions, v.Name)
			}
		}
		for _, f := range s.Fields {
			for _, name := range versions {
				v, _ := m.Version(name)
				if _, ok := v.NodeAt(f.Path); !ok {
					t.Errorf("%s: %s: version %s has no node %s", file, m.Name, name, f.Path)
				}
			}
		}
	}
}

// TestCorpusTranslates checks, where translate can compile the CRD, that
// it accepts every sure proposal once Vet has commented out those it
// refuses, each with translate's reason.
func TestCorpusTranslates(t *testing.T) {
	if testing.Short() {
		t.Skip("translating the corpus takes a minute")
	}
	refused, proposed := 0, 0
	for _, c := range corpus.CRDs(t) {
		m, err := crd.Read(c.Doc)
		if err != nil {
			t.Fatal(err)
		}
		r := Infer(m)
		check := translator(c.Doc)
		if unplaced := r.Vet("proposals.yaml", check); len(unplaced) > 0 {
			t.Errorf("%s: %s: problems at no proposal: %v", c.File, m.Name, diag.List(unplaced))
			continue
		}
		if problems := check(Sets("proposals.yaml", []*Result{r})); len(problems) > 0 {
			t.Errorf("%s: %s: translate still refuses: %v", c.File, m.Name, diag.List(problems))
		}
		for _, p := range r.Proposals {
			proposed++
			if len(p.Doubt) > 22 && p.Doubt[:22] == "refused by the compile" {
				refused++
			}
		}
	}
	t.Logf("%d proposals, %d refused by translate", proposed, refused)
}

// translator checks sets with translate on a copy of doc.
func translator(doc map[string]interface{}) func([]decl.Set) []diag.Diagnostic {
	return func(sets []decl.Set) []diag.Diagnostic {
		_, err := translate.Translate(deepCopy(doc), translate.Options{Declarations: sets})
		var te *translate.Error
		if errors.As(err, &te) {
			return te.Problems
		}
		if err != nil {
			return []diag.Diagnostic{{Detail: err.Error()}}
		}
		return nil
	}
}

func deepCopy(v interface{}) map[string]interface{} {
	m, _ := copyValue(v).(map[string]interface{})
	return m
}

func copyValue(v interface{}) interface{} {
	switch x := v.(type) {
	case map[string]interface{}:
		out := make(map[string]interface{}, len(x))
		for k, e := range x {
			out[k] = copyValue(e)
		}
		return out
	case []interface{}:
		out := make([]interface{}, len(x))
		for i, e := range x {
			out[i] = copyValue(e)
		}
		return out
	}
	return v
}
