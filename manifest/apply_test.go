package manifest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/testkit/golden"
)

// schemaPath builds the path of a property schema of version v:
// schemaPath(0, "spec", "a") is spec.versions[0].schema.openAPIV3Schema
// .properties[spec].properties[a].
func schemaPath(v int, props ...string) []interface{} {
	p := []interface{}{"spec", "versions", v, "schema", "openAPIV3Schema"}
	for _, name := range props {
		p = append(p, "properties", name)
	}
	return p
}

func rules(rs ...string) []edit.Rule {
	var out []edit.Rule
	for _, r := range rs {
		out = append(out, edit.Rule{Rule: r, Message: "immutable"})
	}
	return out
}

var immutable = []string{"x-kubernetes-mutability"}

// applyCases edit testdata/apply/NAME.in.EXT; the result is compared with
// NAME.out.EXT.
var applyCases = []struct {
	name, in    string
	edits       []edit.Edit
	doc         int  // index of the edited document
	reencoded   bool // the document cannot be spliced
	reformatted bool // and re-encoding changes it outside the edits
	crlf        bool // run with CRLF line ends (the golden file has LF)
	noFinalNL   bool // run without the final newline
}{{
	name: "remove-key", in: "controller-gen.in.yaml",
	edits: []edit.Edit{{Path: schemaPath(0, "spec", "class"), Remove: immutable}},
}, {
	name: "replace-removed-key", in: "controller-gen.in.yaml",
	edits: []edit.Edit{{Path: schemaPath(0, "spec", "class"), Remove: immutable, AddRules: rules("self == oldSelf")}},
}, {
	name: "append-controller-gen", in: "controller-gen.in.yaml",
	edits: []edit.Edit{{Path: schemaPath(0, "spec", "size"), Remove: immutable, AddRules: rules("self == oldSelf")}},
}, {
	// A bound and a rule for a node whose rule list is its last key, as
	// controller-gen sorts them: the rule goes into the list, the bound
	// after it.
	name: "set-and-append", in: "controller-gen.in.yaml",
	edits: []edit.Edit{{Path: schemaPath(0, "spec", "size"), Set: []edit.Setting{{Key: "maximum", Value: int64(64)}}, AddRules: rules("self <= oldSelf")}},
}, {
	name: "create-after-block-scalar", in: "controller-gen.in.yaml",
	edits: []edit.Edit{{Path: schemaPath(0, "spec", "notes"), AddRules: rules("self == oldSelf")}},
}, {
	name: "two-edits-same-end", in: "controller-gen.in.yaml",
	edits: []edit.Edit{
		{Path: schemaPath(0, "status"), AddRules: rules("has(self.x)")},
		{Path: schemaPath(0), AddRules: rules("!has(oldSelf.spec) || has(self.spec)")},
		{Path: schemaPath(0, "spec", "tags"), Remove: []string{"x-kubernetes-key-mutability"},
			AddRules: rules("oldSelf.all(x, x in self)")},
		{Path: schemaPath(0, "status"), AddRules: rules("second edit, same node")},
	},
}, {
	name: "deep-path", in: "controller-gen.in.yaml",
	edits: []edit.Edit{{Path: append(schemaPath(0, "spec", "tags"), "items"), AddRules: rules("self.size() < 64")}},
}, {
	name: "quoting", in: "controller-gen.in.yaml",
	edits: []edit.Edit{{Path: schemaPath(0, "status"), AddRules: []edit.Rule{
		{Rule: "y", Message: "on"},
		{Rule: "no", Message: "off", Reason: "FieldValueForbidden", FieldPath: ".x"},
		{Rule: "self == 'a'", Message: `say "hi"`},
		{Rule: `self == "a" || self == 'b'`, Message: `back\slash`},
		{Rule: "self.x # not a comment", Message: "key: value"},
		{Rule: "- leading dash", Message: "1.5"},
		{Rule: "has(self.a) &&\n  has(self.b)", Message: "two\nlines\n"},
		{Rule: " leading space\nline", Message: "tab\there"},
		{Rule: "ünïcødé == '日本語' && '😀' != ''", Message: "line\u2028separator"},
		{Rule: "null", Message: "~"},
		{Rule: "true", Message: "2001-12-14"},
		{Rule: "kept\n\n", Message: "0x1F"},
	}}},
}, {
	name: "indented", in: "indented.in.yaml",
	edits: []edit.Edit{
		{Path: schemaPath(0, "spec"), AddRules: rules("self.b == oldSelf.b")},
		{Path: schemaPath(0, "spec", "a"), Remove: immutable, AddRules: rules("self == oldSelf")},
		{Path: schemaPath(0, "spec", "b"), AddRules: rules("self == oldSelf")},
	},
}, {
	name: "flow", in: "flow.in.yaml", reencoded: true,
	edits: []edit.Edit{
		{Path: schemaPath(0, "spec"), AddRules: rules("self.a == oldSelf.a")},
		{Path: schemaPath(0, "spec", "a"), Remove: immutable},
	},
}, {
	name: "stream", in: "stream.in.yaml", doc: 2,
	edits: []edit.Edit{
		{Path: schemaPath(0, "true"), Remove: immutable, AddRules: rules("self == oldSelf")},
		{Path: schemaPath(0, "off"), AddRules: rules("self == oldSelf")}, // last before "..."
	},
}, {
	name: "anchors", in: "anchors.in.yaml", reencoded: true,
	edits: []edit.Edit{{Path: schemaPath(0, "c"), Remove: immutable, AddRules: rules("self == oldSelf")}},
}, {
	// Re-encoding joins the folded lines of descriptions the edits do not
	// touch: that is what Reformatted reports.
	name: "folded-anchor", in: "folded-anchor.in.yaml", reencoded: true, reformatted: true,
	edits: []edit.Edit{{Path: schemaPath(0, "c"), Remove: immutable, AddRules: rules("self == oldSelf")}},
}, {
	name: "dash-line", in: "dash-line.in.yaml", reencoded: true,
	edits: []edit.Edit{{Path: append(schemaPath(0, "spec"), "anyOf", 0), Remove: immutable}},
}, {
	name: "markers", in: "markers.in.yaml", doc: 1, reencoded: true, reformatted: true, crlf: true,
	edits: []edit.Edit{{Path: []interface{}{"spec", "anyOf", 0}, Remove: immutable, AddRules: rules("on")}},
}, {
	name: "empty-after", in: "empty-after.in.yaml", reencoded: true,
	edits: []edit.Edit{{Path: schemaPath(0, "a"), Remove: immutable}},
}, {
	name: "multi-line-plain", in: "plain.in.yaml",
	edits: []edit.Edit{{Path: schemaPath(0, "spec", "a"), Remove: []string{"description", "x-kubernetes-mutability"}, AddRules: rules("self == oldSelf")}},
}, {
	name: "crlf", in: "controller-gen.in.yaml", crlf: true,
	edits: []edit.Edit{
		{Path: schemaPath(0, "spec", "class"), Remove: immutable, AddRules: rules("self == oldSelf")},
		{Path: schemaPath(0, "spec", "size"), Remove: immutable, AddRules: rules("self == oldSelf")},
	},
}, {
	name: "no-final-newline", in: "indented.in.yaml", noFinalNL: true,
	edits: []edit.Edit{{Path: schemaPath(0, "spec", "c"), AddRules: rules("self == oldSelf")}},
}, {
	name: "json", in: "edit.in.json", reencoded: true,
	edits: []edit.Edit{
		{Path: schemaPath(0, "a"), Remove: immutable, AddRules: rules("self == oldSelf")},
		{Path: schemaPath(0, "b"), Remove: immutable, AddRules: rules("self == oldSelf")},
	},
}, {
	name: "set", in: "controller-gen.in.yaml",
	edits: []edit.Edit{
		{Path: schemaPath(0, "spec", "class"), Remove: immutable, AddRules: rules("self == oldSelf"),
			Set: []edit.Setting{{Key: "maxLength", Value: int64(64)}, {Key: "on", Value: "y"}, {Key: "x-nullable", Value: false}}},
		{Path: schemaPath(0, "spec", "size"), Set: []edit.Setting{{Key: "format", Value: "int64"}}},
		{Path: schemaPath(0, "spec", "notes"), Set: []edit.Setting{{Key: "description", Value: "One.\n\nTwo.\n"}}},
		{Path: schemaPath(0, "spec", "tags"), Set: []edit.Setting{{Key: "items", Value: "not a schema"}}},
	},
}, {
	name: "set-keeps-comment", in: "controller-gen.in.yaml",
	edits: []edit.Edit{{Path: schemaPath(0, "spec", "class"), Set: []edit.Setting{{Key: "x-kubernetes-mutability", Value: "AddOnly"}}}},
}, {
	name: "create-present", in: "controller-gen.in.yaml",
	edits: []edit.Edit{{Path: []interface{}{"metadata", "annotations"}, Create: true,
		Set: []edit.Setting{{Key: "mut2cel.io/declarations", Value: "v1:\n  .spec.class:\n    x-kubernetes-mutability: Immutable\n"}}}},
}, {
	name: "create-absent", in: "indented.in.yaml",
	edits: []edit.Edit{
		{Path: []interface{}{"metadata", "annotations"}, Create: true, Set: []edit.Setting{{Key: "a.io/x", Value: "1"}}},
		{Path: []interface{}{"metadata", "annotations"}, Create: true, Set: []edit.Setting{{Key: "n", Value: "two\nlines"}}},
		{Path: append(schemaPath(0, "spec", "a"), "items"), Create: true, Set: []edit.Setting{{Key: "type", Value: "string"}},
			AddRules: rules("self.size() > 0")},
	},
}, {
	name: "create-null", in: "rules.in.yaml",
	edits: []edit.Edit{{Path: []interface{}{"metadata", "annotations"}, Create: true, Set: []edit.Setting{{Key: "a", Value: "b"}}}},
}, {
	name: "create-empty-flow", in: "empty-annotations.in.yaml",
	edits: []edit.Edit{{Path: []interface{}{"metadata", "annotations"}, Create: true, Set: []edit.Setting{{Key: "a", Value: "b"}}}},
}, {
	name: "set-replaces-comment-value", in: "rules.in.yaml",
	edits: []edit.Edit{{Path: schemaPath(0, "a"), Set: []edit.Setting{{Key: "maxLength", Value: int64(20)}}}},
}, {
	name: "remove-rules", in: "rules.in.yaml",
	edits: []edit.Edit{
		{Path: schemaPath(0), RemoveRules: []edit.Rule{
			{Rule: "self.a == oldSelf.a", Message: "a is immutable", Reason: "FieldValueForbidden"},
			{Rule: "self.b == oldSelf.b", Message: "b is immutable"},
		}},
		{Path: schemaPath(0, "b"), RemoveRules: []edit.Rule{{Rule: "self == oldSelf", Message: "b is immutable"}}},
	},
}, {
	name: "remove-and-add-rules", in: "rules.in.yaml",
	edits: []edit.Edit{
		{Path: schemaPath(0, "b"), RemoveRules: []edit.Rule{{Rule: "self == oldSelf", Message: "b is immutable"}},
			AddRules: []edit.Rule{{Rule: "self == oldSelf", Message: "b cannot change"}}},
		{Path: schemaPath(0), RemoveRules: []edit.Rule{{Rule: "has(self.a)"}}, AddRules: rules("has(self.b)")},
	},
}, {
	// The markers step removes controller-gen's rules in one edit and adds
	// mut2cel's to the same node in a later one: the key comes back where
	// it was, and the document is still spliced.
	name: "remove-then-add-rules", in: "rules.in.yaml",
	edits: []edit.Edit{
		{Path: schemaPath(0, "b"), RemoveRules: []edit.Rule{{Rule: "self == oldSelf", Message: "b is immutable"}}},
		{Path: schemaPath(0), Remove: []string{edit.ValidationsKey}},
		{Path: schemaPath(0), AddRules: rules("has(self.b)")},
		{Path: schemaPath(0, "b"), AddRules: []edit.Rule{{Rule: "self == oldSelf", Message: "b cannot change"}}},
		{Path: schemaPath(0), AddRules: rules("has(self.a)")},
	},
}, {
	name: "json-set", in: "edit.in.json", reencoded: true,
	edits: []edit.Edit{
		{Path: []interface{}{"metadata", "annotations"}, Create: true, Set: []edit.Setting{{Key: "a/b", Value: "x\ny"}}},
		{Path: schemaPath(0, "a"), Set: []edit.Setting{{Key: "maxLength", Value: int64(8)}, {Key: "type", Value: "string"}}},
		{Path: schemaPath(0, "b"), AddRules: rules("self > 0")},
		{Path: schemaPath(0, "b"), RemoveRules: rules("self > 0"), Set: []edit.Setting{{Key: "nullable", Value: true}}},
	},
}, {
	name: "flow-set", in: "flow.in.yaml", reencoded: true,
	edits: []edit.Edit{
		{Path: schemaPath(0, "spec"), RemoveRules: []edit.Rule{{Rule: "has(self.a)", Message: "a is required"}}},
		{Path: schemaPath(0, "spec", "a"), Set: []edit.Setting{{Key: "maxLength", Value: int64(3)}}},
		{Path: []interface{}{"metadata", "annotations"}, Create: true, Set: []edit.Setting{{Key: "on", Value: "off"}}},
	},
}, {
	name: "json-tabs", in: "tabs.in.json", reencoded: true, reformatted: true,
	edits: []edit.Edit{{Path: schemaPath(0), AddRules: rules("self.x == oldSelf.x")}},
}}

func TestApply(t *testing.T) {
	for _, c := range applyCases {
		t.Run(c.name, func(t *testing.T) {
			in := readTestdata(t, c.in, c.crlf, c.noFinalNL)
			f, err := Parse(c.in, in)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			d := f.Docs[c.doc]
			want, err := edit.Apply(d.Value(), c.edits)
			if err != nil {
				t.Fatalf("edit.Apply: %v", err)
			}
			if err := d.Apply(c.edits); err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if d.reencoded != c.reencoded {
				t.Errorf("re-encoded = %v, want %v", d.reencoded, c.reencoded)
			}
			if d.Reformatted() != c.reformatted {
				t.Errorf("Reformatted() = %v, want %v", d.Reformatted(), c.reformatted)
			}
			if !reflect.DeepEqual(d.Value(), want) {
				t.Errorf("Value() after Apply differs from edit.Apply")
			}
			out := checkLineEnds(t, f.Bytes(), c.crlf, c.noFinalNL)
			golden.Check(t, filepath.Join("testdata", "apply", c.name+".out"+filepath.Ext(c.in)), out)
			checkOtherDocsUnchanged(t, in, f, c.doc)
		})
	}
}

// readTestdata reads an input file and gives it CRLF line ends or takes
// its final newline away.
func readTestdata(t *testing.T, name string, crlf, noFinalNL bool) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "apply", name))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if noFinalNL {
		s = strings.TrimSuffix(s, "\n")
	}
	if crlf {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	return []byte(s)
}

// checkLineEnds checks the line ends of out and returns it with LF line
// ends and a final newline, as golden files have.
func checkLineEnds(t *testing.T, out []byte, crlf, noFinalNL bool) []byte {
	t.Helper()
	s := string(out)
	if crlf {
		if strings.Count(s, "\n") != strings.Count(s, "\r\n") {
			t.Errorf("output mixes LF and CRLF line ends")
		}
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	if noFinalNL {
		if strings.HasSuffix(s, "\n") {
			t.Errorf("output gained a final newline")
		}
		s += "\n"
	}
	return []byte(s)
}

func checkOtherDocsUnchanged(t *testing.T, in []byte, f *File, edited int) {
	t.Helper()
	orig, err := Parse("orig", in)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range f.Docs {
		if i != edited && string(d.Bytes()) != string(orig.Docs[i].Bytes()) {
			t.Errorf("document %d changed, only %d was edited", i, edited)
		}
	}
}
