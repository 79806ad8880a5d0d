package manifest

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/translate"
)

// dummyRule is unique text, so that the lines a test inserts can be told
// from the file's own.
var dummyRule = edit.Rule{Rule: "self == self", Message: "corpus test: on"}

const dummyMessage = `'corpus test: on'`

func TestCorpusRoundTrip(t *testing.T) {
	for _, p := range corpus.Files(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(p, data)
		if err != nil {
			t.Errorf("Parse(%s): %v", p, err)
			continue
		}
		if got := f.Bytes(); string(got) != string(data) {
			t.Errorf("Parse(%s).Bytes() differs from the input", p)
		}
	}
}

// TestCorpusEdit adds one rule to every version's root schema of every CRD
// and checks that the output decodes to the intended value and differs from
// the input only by the inserted lines.
func TestCorpusEdit(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: edits 19 MB of CRDs")
	}
	docs, spliced := 0, 0
	for _, p := range corpus.Files(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(p, data)
		if err != nil {
			t.Fatalf("Parse(%s): %v", p, err)
		}
		var want []map[string]interface{}
		for _, d := range f.Docs {
			edits := rootSchemaEdits(d.Value())
			w, err := edit.Apply(d.Value(), edits)
			if err != nil {
				t.Fatalf("edit.Apply(%s #%d): %v", p, d.Index(), err)
			}
			want = append(want, w)
			before := d.Bytes()
			if err := d.Apply(edits); err != nil {
				t.Errorf("Apply(%s #%d): %v", p, d.Index(), err)
				continue
			}
			if len(edits) > 0 {
				docs++
				if !d.Reformatted() {
					spliced++
					checkInsertedOnly(t, p, before, d.Bytes(), len(edits))
				}
			}
		}
		checkReparse(t, p, f.Bytes(), want)
	}
	t.Logf("%d CRD documents edited, %d spliced, %d re-encoded", docs, spliced, docs-spliced)
	if spliced != docs {
		t.Errorf("%d of %d corpus documents had to be re-encoded", docs-spliced, docs)
	}
}

func rootSchemaEdits(doc map[string]interface{}) []edit.Edit {
	var edits []edit.Edit
	for i := range versions(doc) {
		if _, err := edit.Mapping(doc, rootPath(i)); err == nil {
			edits = append(edits, edit.Edit{Path: rootPath(i), AddRules: []edit.Rule{dummyRule}})
		}
	}
	return edits
}

// versions returns the versions of a CRD document, nil for another.
func versions(doc map[string]interface{}) []interface{} {
	if doc == nil || !translate.IsCRD(doc) {
		return nil
	}
	spec, _ := doc["spec"].(map[string]interface{})
	list, _ := spec["versions"].([]interface{})
	return list
}

func rootPath(version int) []interface{} {
	return []interface{}{"spec", "versions", version, "schema", "openAPIV3Schema"}
}

// checkReparse parses out anew and compares every document's value.
func checkReparse(t *testing.T, name string, out []byte, want []map[string]interface{}) {
	t.Helper()
	f, err := Parse(name, out)
	if err != nil {
		t.Fatalf("Parse(edited %s): %v", name, err)
	}
	if len(f.Docs) != len(want) {
		t.Fatalf("edited %s has %d documents, want %d", name, len(f.Docs), len(want))
	}
	for i, d := range f.Docs {
		if !reflect.DeepEqual(d.Value(), want[i]) {
			t.Errorf("edited %s document %d does not decode to the intended value", name, i)
		}
	}
}

// checkInsertedOnly checks that out is in with whole lines inserted, and
// that the inserted lines are the dummy rule, once per edit, with a new
// x-kubernetes-validations key where the schema had none.
func checkInsertedOnly(t *testing.T, name string, in, out []byte, edits int) {
	t.Helper()
	inserted, ok := insertedLines(strings.SplitAfter(string(in), "\n"), strings.SplitAfter(string(out), "\n"))
	if !ok {
		t.Errorf("%s: the edit changed or removed original lines", name)
		return
	}
	rules, keys := 0, 0
	for i := 0; i < len(inserted); i++ {
		switch l := strings.TrimSpace(inserted[i]); {
		case l == edit.ValidationsKey+":":
			keys++
		case l == "- message: "+dummyMessage && i+1 < len(inserted) &&
			strings.TrimSpace(inserted[i+1]) == "rule: "+dummyRule.Rule:
			rules++
			i++
		default:
			t.Errorf("%s: unexpected inserted line %q", name, inserted[i])
		}
	}
	if rules != edits || keys > rules {
		t.Errorf("%s: inserted %d rules and %d keys for %d edits", name, rules, keys, edits)
	}
}

// insertedLines matches in against out greedily and returns the lines of
// out that are not in in; ok is false when a line of in is missing.
func insertedLines(in, out []string) (inserted []string, ok bool) {
	i := 0
	for _, l := range out {
		if i < len(in) && in[i] == l {
			i++
			continue
		}
		inserted = append(inserted, l)
	}
	return inserted, i == len(in)
}

// TestCorpusReencode forces the fallback on every CRD of the corpus: the
// re-encoded documents must decode to the intended value too.
func TestCorpusReencode(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: re-encodes 19 MB of CRDs")
	}
	for _, p := range corpus.Files(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(p, data)
		if err != nil {
			t.Fatalf("Parse(%s): %v", p, err)
		}
		for _, d := range f.Docs {
			edits := rootSchemaEdits(d.Value())
			if len(edits) == 0 {
				continue
			}
			want, err := edit.Apply(d.Value(), edits)
			if err != nil {
				t.Fatal(err)
			}
			out, err := d.reencode(edits)
			if err != nil || !d.adopt(out, want) {
				t.Errorf("re-encoding %s #%d does not give the intended value (%v)", p, d.Index(), err)
			}
		}
	}
}

// TestCorpusRemove removes the (often multi-line) description of every
// version's root schema while adding a rule: real layouts must splice.
func TestCorpusRemove(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: edits 19 MB of CRDs")
	}
	for _, p := range corpus.Files(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(p, data)
		if err != nil {
			t.Fatalf("Parse(%s): %v", p, err)
		}
		for _, d := range f.Docs {
			edits := rootSchemaEdits(d.Value())
			for i := range edits {
				if descriptionAt(d.Value(), edits[i].Path) {
					edits[i].Remove = []string{"description"}
				}
			}
			if err := d.Apply(edits); err != nil {
				t.Errorf("Apply(%s #%d): %v", p, d.Index(), err)
			} else if d.Reformatted() {
				t.Errorf("Apply(%s #%d) re-encoded the document", p, d.Index())
			}
		}
	}
}

func descriptionAt(doc map[string]interface{}, path []interface{}) bool {
	m, err := edit.Mapping(doc, path)
	_, ok := m["description"]
	return err == nil && ok
}
