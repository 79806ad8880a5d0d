package compiler

import (
	"testing"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
)

// kindSamples holds a value of every kind, as decoded from a schema.
var kindSamples = map[string]interface{}{
	decl.ExtMutability:    "Immutable",
	decl.ExtKeyMutability: "AddOnly",
	decl.ExtUpdate:        []interface{}{"NoModify"},
	decl.ExtFormats:       "CompareAsValues",
	decl.ExtUnions: []interface{}{map[string]interface{}{
		"discriminator":            "type",
		"fields-to-discriminateBy": map[string]interface{}{"a": "A", "b": "B"},
	}},
}

// TestSchemaFrontEndReadsEveryKind: the schema front end reads every kind
// of decl.Kinds, and writing a declaration back into a schema
// (decl.Kind.Write) gives what it read.
func TestSchemaFrontEndReadsEveryKind(t *testing.T) {
	raw := map[string]interface{}{"type": "array", "items": map[string]interface{}{"type": "string"}}
	for _, k := range decl.Kinds {
		v, ok := kindSamples[k.Name]
		if !ok {
			t.Errorf("kind %s has no sample value in kinds_test.go", k.Name)
			continue
		}
		raw[k.Name] = v
	}
	root := map[string]interface{}{"type": "object", "properties": map[string]interface{}{"list": raw}}
	decls, problems := schemaDeclarations("widgets.example.com", &crd.Version{Name: "v1", Raw: root})
	if len(problems) > 0 {
		t.Fatalf("schemaDeclarations: %v", problems)
	}
	read := map[string]string{}
	for _, d := range decls {
		read[d.Ext] = d.Value
	}
	for _, k := range decl.Kinds {
		value, ok := read[k.Name]
		if !ok {
			t.Errorf("kind %s: not read from the schema (read %v)", k.Name, read)
			continue
		}
		if again, err := k.Read(k.Write(value)); err != nil || again != value {
			t.Errorf("kind %s: %q written back reads as %q, %v", k.Name, value, again, err)
		}
	}
}
