package builtin

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	extensionsscheme "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/scheme"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	yamlv3 "go.yaml.in/yaml/v3"

	"github.com/mut2cel/mut2cel/testkit/hostile"
)

var widget = schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}

// readWidget reads the kind Widget of a hostile document.
func readWidget(name string, data []byte) (map[string]interface{}, error) {
	doc, err := ReadOpenAPI(name, data)
	if err != nil {
		return nil, err
	}
	r, err := doc.Resource(widget)
	if err != nil {
		return nil, err
	}
	return CRD(r)
}

// TestExpansionLimits reads documents whose references expand past the
// limits of a run: each is refused with the file, the kind's schema, the
// path and schema where the limit was passed, and the limit. Without the
// limits, the first made 8 million properties and ran out of memory.
func TestExpansionLimits(t *testing.T) {
	const (
		head    = `^hostile\.json: schema A of example\.com/v1, Kind=Widget: `
		values  = `with its references resolved, the schema holds more than 2,000,000 values \(mapping keys and values, list items\), the most mut2cel reads in one run \(docs/limits\.md\)$`
		bytes   = `with its references resolved, the schema holds more than 64 MiB, the most mut2cel reads in one run \(docs/limits\.md\)$`
		nesting = `with its references resolved, the schema nests deeper than 10,000 levels, the most mut2cel reads \(docs/limits\.md\)$`
	)
	for _, tc := range []struct {
		name string
		data []byte
		err  string // a regular expression
	}{
		{"three schemas of 200 properties referring to each other", hostile.MutualReferences("example.com", 200),
			head + `\.p\d+\.p\d+\.p\d+ \(in schema C\): ` + bytes},
		{"800 references to 800 strings", hostile.WideReferences("example.com", 800),
			head + `\.p\d+(\.q\d+)? \(in schema B\): ` + values},
		{"a chain of 6,000 references", hostile.ReferenceChain("example.com", 6000),
			head + regexp.QuoteMeta(strings.Repeat(".next", 4998)) + ` \(in schema S4997\): ` + nesting},
		{"a chain of 4,000 references", hostile.ReferenceChain("example.com", 4000),
			head + `(\.next)+ \(in schema S\d+\): ` + bytes},
		{"an enum nested 9,993 levels", enumNested(9993),
			head + `\.x: ` + nesting},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readWidget("hostile.json", tc.data)
			if err == nil || !regexp.MustCompile(tc.err).MatchString(err.Error()) {
				t.Errorf("CRD of %d bytes: error %.300v, want %s", len(tc.data), err, tc.err)
			}
		})
	}
}

// enumNested is a document whose kind has a string x with an enum of one
// value, a list nested depth levels: within what a parser reads, past it
// once placed in a CRD.
func enumNested(depth int) []byte {
	return enumDoc(strings.Repeat("[", depth) + strings.Repeat("]", depth))
}

// enumDoc is a document whose kind has a string x with the enum values,
// written in JSON.
func enumDoc(values string) []byte {
	data := string(hostile.ReferenceChain("example.com", 1))
	return []byte(strings.Replace(data, `"next":{"$ref":"#/components/schemas/S1"}`, `"x":{"type":"string","enum":[`+values+`]}`, 1))
}

// TestExpansionSharedByKinds reads two kinds of one document, each
// expanding to 1.2 million values: the second passes the limit the
// kinds of a document share, and the error says so.
func TestExpansionSharedByKinds(t *testing.T) {
	var doc map[string]interface{}
	if err := json.Unmarshal(hostile.WideReferences("example.com", 550), &doc); err != nil {
		t.Fatal(err)
	}
	schemas := doc["components"].(map[string]interface{})["schemas"].(map[string]interface{})
	data, _ := json.Marshal(schemas["A"])
	var gadget map[string]interface{}
	json.Unmarshal(data, &gadget)
	gadget["x-kubernetes-group-version-kind"] = []interface{}{map[string]interface{}{"group": "example.com", "version": "v1", "kind": "Gadget"}}
	schemas["G"] = gadget
	data, _ = json.Marshal(doc)
	o, err := ReadOpenAPI("two.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CRD(Resource{GVK: widget, Plural: "widgets", OpenAPI: o}); err != nil {
		t.Fatalf("the first kind: %v", err)
	}
	_, err = CRD(Resource{GVK: widget.GroupVersion().WithKind("Gadget"), Plural: "gadgets", OpenAPI: o})
	want := regexp.MustCompile(`^two\.json: schema G of example\.com/v1, Kind=Gadget: \.p\d+(\.q\d+)? \(in schema B\): with its references resolved and the kinds read from the document before it, the schema holds more than 2,000,000 values`)
	if err == nil || !want.MatchString(err.Error()) {
		t.Errorf("the second kind: error %v, want %s", err, want)
	}
}

// TestExpansionSelfReference reads a kind whose properties, list items
// and map values refer to the kind itself, as JSONSchemaProps does: each
// is cut where it recurs, once, and keeps any value.
func TestExpansionSelfReference(t *testing.T) {
	o, err := ReadOpenAPI("self.json", hostile.SelfReferences("example.com", 50))
	if err != nil {
		t.Fatal(err)
	}
	r := Resource{GVK: widget, Plural: "widgets", OpenAPI: o}
	if _, err := CRD(r); err != nil {
		t.Fatal(err)
	}
	cuts := 0
	for _, why := range o.opaque[widget] {
		if why == "cut where schema A recurs within itself" {
			cuts++
		}
	}
	if cuts != 52 {
		t.Errorf("%d nodes cut where A recurs, want 52 (50 properties, the items of all, the values of any): %v", cuts, o.opaque[widget])
	}
}

// TestReadOpenAPINesting reads documents nested past what the parsers
// read, as JSON and as YAML: the error names the file, the line where
// JSON says, and the limit.
func TestReadOpenAPINesting(t *testing.T) {
	for _, tc := range []struct {
		name, err string
		data      []byte
	}{
		{"deep.json", "deep.json:1: nested deeper than 10,000 levels, the most mut2cel reads (docs/limits.md)", hostile.NestedAllOf("example.com", 5000, false)},
		{"deep.yaml", "deep.yaml: nested deeper than 10,000 levels, the most mut2cel reads (docs/limits.md)", hostile.NestedAllOf("example.com", 5000, true)},
	} {
		if _, err := ReadOpenAPI(tc.name, tc.data); err == nil || err.Error() != tc.err {
			t.Errorf("ReadOpenAPI(%s) = %v, want %s", tc.name, err, tc.err)
		}
	}
	// Within the parsers' limit, nested allOf is no schema a CRD holds.
	_, err := readWidget("nested.json", hostile.NestedAllOf("example.com", 100, false))
	if want := "nested.json: schema A of example.com/v1, Kind=Widget: .deep: allOf of 1 schemas without a type: a structural schema cannot hold it"; err == nil || err.Error() != want {
		t.Errorf("CRD of 100 nested allOf: %v, want %s", err, want)
	}
}

// TestExpansionCountsWhatIsWritten checks that what an expansion counts
// is never below what the schema holds once written as YAML, as its
// vehicle is: values, bytes and nesting, on documents of every shape
// (references, recursion, enums, defaults, list-map keys, and the
// generated document of CustomResourceDefinition, whose JSONSchemaProps
// refers to itself).
func TestExpansionCountsWhatIsWritten(t *testing.T) {
	crdKind := (&apiextensionsv1.CustomResourceDefinition{}).OpenAPIModelName()
	for _, tc := range []struct {
		name string
		doc  func(t *testing.T) (*OpenAPI, string)
	}{
		{"shop", func(t *testing.T) (*OpenAPI, string) { return mustRead(t, []byte(shopDoc)), "com.example.shop.v1.Cart" }},
		{"CustomResourceDefinition", func(t *testing.T) (*OpenAPI, string) {
			return generatedDocument(t, extensionsscheme.Scheme, crdKind), crdKind
		}},
		{"mutual references", func(t *testing.T) (*OpenAPI, string) {
			return mustRead(t, hostile.MutualReferences("example.com", 12)), "A"
		}},
		{"wide references", func(t *testing.T) (*OpenAPI, string) {
			return mustRead(t, hostile.WideReferences("example.com", 40)), "A"
		}},
		{"chain", func(t *testing.T) (*OpenAPI, string) {
			return mustRead(t, hostile.ReferenceChain("example.com", 300)), "A"
		}},
		{"self references", func(t *testing.T) (*OpenAPI, string) {
			return mustRead(t, hostile.SelfReferences("example.com", 20)), "A"
		}},
		{"nested enum", func(t *testing.T) (*OpenAPI, string) { return mustRead(t, enumNested(50)), "A" }},
		{"long strings", func(t *testing.T) (*OpenAPI, string) {
			long := `"` + strings.Repeat("x", 1000) + `"`
			return mustRead(t, enumDoc(strings.Repeat(long+",", 9)+long)), "A"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, name := tc.doc(t)
			r := doc.reader(name)
			root, err := r.node(doc.schemas[name].(map[string]interface{}), nil)
			if err != nil {
				t.Fatal(err)
			}
			values, bytes, nesting := written(t, root)
			if r.made.values < values || r.made.bytes < bytes || r.made.deepest < nesting {
				t.Errorf("counted %d values, %d bytes, %d levels; written, the schema holds %d values, %d bytes, %d levels",
					r.made.values, r.made.bytes, r.made.deepest, values, bytes, nesting)
			}
			t.Logf("counted %d values, %d bytes, %d levels; written %d, %d, %d", r.made.values, r.made.bytes, r.made.deepest, values, bytes, nesting)
		})
	}
}

func mustRead(t *testing.T, data []byte) *OpenAPI {
	t.Helper()
	doc, err := ReadOpenAPI("doc.json", data)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// written measures root written as YAML at the place of a vehicle's
// schema, rootLevel collections deep: the values below it, the bytes it
// adds to the document, and the nesting of its deepest collection.
func written(t *testing.T, root map[string]interface{}) (values, bytes, nesting int) {
	t.Helper()
	wrap := func(schema interface{}) []byte {
		doc := map[string]interface{}{"spec": map[string]interface{}{"versions": []interface{}{
			map[string]interface{}{"schema": map[string]interface{}{"openAPIV3Schema": schema}}}}}
		data, err := yaml.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	data := wrap(root)
	bytes = len(data) - len(wrap(map[string]interface{}{}))
	var n yamlv3.Node
	if err := yamlv3.Unmarshal(data, &n); err != nil {
		t.Fatal(err)
	}
	schema := n.Content[0].Content[1].Content[1].Content[0].Content[1].Content[1]
	var walk func(n *yamlv3.Node, level int)
	walk = func(n *yamlv3.Node, level int) {
		if n.Kind == yamlv3.MappingNode || n.Kind == yamlv3.SequenceNode {
			nesting = max(nesting, level)
		}
		for _, c := range n.Content {
			values++
			walk(c, level+1)
		}
	}
	walk(schema, rootLevel)
	return values, bytes, nesting
}
