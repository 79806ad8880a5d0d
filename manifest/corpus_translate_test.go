package manifest

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/testkit/fidelity"
	"github.com/mut2cel/mut2cel/translate"
)

// TestCorpusTranslate declares, in every CRD of the corpus, one string
// field of spec immutable in the schema, as a user would, translates the
// document and applies the edits as translate -w does; then it changes
// the declaration to AddOnly in the annotation and translates again, which
// replaces the generated rules. Every line of the published document must
// come out unchanged and in order, the new lines must be edits (rules,
// bounds, annotations), and no document may be re-encoded.
func TestCorpusTranslate(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: translates every CRD of the corpus")
	}
	translated, refused := 0, 0
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
			edits := declareImmutable(d.Value())
			if len(edits) == 0 {
				continue
			}
			name := fmt.Sprintf("%s #%d", p, d.Index()+1)
			published := d.Bytes()
			if err := d.Apply(edits); err != nil {
				t.Errorf("declaring in %s: %v", name, err)
				continue
			}
			if !translateCorpusDoc(t, name, d) {
				refused++
				continue
			}
			if err := d.Apply([]edit.Edit{redeclare(d.Value(), "Immutable", "AddOnly")}); err != nil {
				t.Errorf("changing the declaration in %s: %v", name, err)
				continue
			}
			if !translateCorpusDoc(t, name, d) {
				t.Errorf("%s: AddOnly refused where Immutable was translated", name)
			}
			if d.reencoded {
				t.Errorf("%s: the document was re-encoded", name)
			}
			fidelity.Check(t, name, published, d.Bytes(), nil)
			translated++
		}
	}
	t.Logf("%d CRD documents translated, %d refused the declaration; the others have no string field below spec (TestCorpusEdit edits them all)", translated, refused)
	if translated == 0 {
		t.Errorf("no corpus CRD translated")
	}
}

// translateCorpusDoc translates d and applies the edits; false when
// translate refuses.
func translateCorpusDoc(t *testing.T, name string, d *Document) bool {
	t.Helper()
	res, err := translate.Translate(d.Value(), translate.Options{})
	if err != nil {
		return false
	}
	if err := d.Apply(res.Edits); err != nil {
		t.Errorf("Apply(%s): %v", name, err)
	}
	return true
}

// redeclare is the edit that replaces from by to in the declarations
// annotation, as a user editing it would.
func redeclare(doc map[string]interface{}, from, to string) edit.Edit {
	path := []interface{}{"metadata", "annotations"}
	annotations, _ := edit.Mapping(doc, path)
	decls, _ := annotations["mut2cel.io/declarations"].(string)
	return edit.Edit{Path: path, Set: []edit.Setting{{Key: "mut2cel.io/declarations", Value: strings.ReplaceAll(decls, from, to)}}}
}

// declareImmutable returns the edits that declare a string property
// without format immutable in every version of the CRD that has it: the
// first by name among spec's properties, else among theirs, and so on
// down through objects.
func declareImmutable(doc map[string]interface{}) []edit.Edit {
	var field []interface{}
	var edits []edit.Edit
	for i := range versions(doc) {
		root, err := edit.Mapping(doc, rootPath(i))
		if err != nil {
			continue
		}
		if field == nil {
			field = plainString(root, []interface{}{"properties", "spec"})
		}
		if field == nil {
			continue
		}
		path := append(rootPath(i), field...)
		if _, err := edit.Mapping(doc, path); err == nil {
			edits = append(edits, edit.Edit{Path: path, Set: []edit.Setting{{Key: "x-kubernetes-mutability", Value: "Immutable"}}})
		}
	}
	return edits
}

// plainString returns the path below root, from start, of the first
// string property without format, breadth first and by name; nil if none.
func plainString(root map[string]interface{}, start []interface{}) []interface{} {
	queue := [][]interface{}{start}
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		schema, err := edit.Mapping(root, path)
		if err != nil {
			continue
		}
		props, _ := schema["properties"].(map[string]interface{})
		names := make([]string, 0, len(props))
		for name := range props {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			p := append(append([]interface{}{}, path...), "properties", name)
			s, _ := props[name].(map[string]interface{})
			if _, hasFormat := s["format"]; s["type"] == "string" && !hasFormat {
				return p
			}
			queue = append(queue, p)
		}
	}
	return nil
}
