package decl_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/decl"
)

// samples holds a value of every kind, as written in YAML. A kind added
// to decl.Kinds without one fails TestKindsHaveSamples, and so is
// exercised by every test below.
var samples = map[string]string{
	decl.ExtMutability:    "AddOnly",
	decl.ExtKeyMutability: "RemoveOnly",
	decl.ExtUpdate:        "[NoUnset, NoModify]",
	decl.ExtFormats:       "CompareAsValues",
	decl.ExtUnions:        "[{discriminator: type, fields-to-discriminateBy: {a: A, b: B}, exactlyOne: true}, {fields-to-discriminateBy: {c: , d: }}]",
}

func TestKindsHaveSamples(t *testing.T) {
	for _, k := range decl.Kinds {
		if _, ok := samples[k.Name]; !ok {
			t.Errorf("kind %s has no sample value in kind_test.go", k.Name)
		}
		if k.Placement == "" {
			t.Errorf("kind %s does not say where it may stand", k.Name)
		}
	}
	if got := decl.Extensions; len(got) != len(decl.Kinds) {
		t.Errorf("Extensions = %v, want the names of all %d kinds", got, len(decl.Kinds))
	}
}

// everyKind is a YAML block mapping that declares every kind, indented.
func everyKind(indent string) string {
	var b strings.Builder
	for _, k := range decl.Kinds {
		fmt.Fprintf(&b, "%s%s: %s\n", indent, k.Name, samples[k.Name])
	}
	return b.String()
}

// TestKindsFileAndAnnotation: a declarations file and the annotation that
// declare every kind read to the same values, and the annotation renders
// to text that reads back the same.
func TestKindsFileAndAnnotation(t *testing.T) {
	file := "apiVersion: mut2cel.io/v1alpha1\nkind: Declarations\ncrd: widgets.example.com\nfields:\n  .spec.a:\n" + everyKind("    ")
	sets, err := decl.ParseFile("d.yaml", []byte(file))
	if err != nil || len(sets) != 1 || len(sets[0].Fields) != 1 {
		t.Fatalf("ParseFile = %v, %v, want one field", sets, err)
	}
	fromFile := sets[0].Fields[0].Values
	annotation, err := decl.ParseAnnotation("v1:\n  .spec.a:\n" + everyKind("    "))
	if err != nil {
		t.Fatalf("ParseAnnotation: %v", err)
	}
	if got := annotation["v1"][".spec.a"]; !reflect.DeepEqual(got, fromFile) {
		t.Errorf("the annotation reads %v, the file %v", got, fromFile)
	}
	if len(fromFile) != len(decl.Kinds) {
		t.Errorf("the file reads %v, want every kind", fromFile)
	}
	again, err := decl.ParseAnnotation(annotation.Render([]string{"v1"}))
	if err != nil || !reflect.DeepEqual(again, annotation) {
		t.Errorf("the rendered annotation reads back as %v, %v, want %v", again, err, annotation)
	}
}

// TestKindsWriteReadsBack: the value a kind writes into a schema reads
// back to the same normalized text, as the schema front end reads it.
func TestKindsWriteReadsBack(t *testing.T) {
	for _, k := range decl.Kinds {
		var v interface{}
		if err := yaml.Unmarshal([]byte(samples[k.Name]), &v); err != nil {
			t.Fatal(err)
		}
		value, err := k.ReadChecked(v)
		if err != nil {
			t.Errorf("%s: sample %s does not read: %v", k.Name, samples[k.Name], err)
			continue
		}
		data, _ := yaml.Marshal(k.Write(value))
		var written interface{}
		if err := yaml.Unmarshal(data, &written); err != nil {
			t.Fatal(err)
		}
		if again, err := k.Read(written); err != nil || again != value {
			t.Errorf("%s: %q written as %s reads back as %q, %v", k.Name, value, data, again, err)
		}
	}
}

// TestKindsMisspelt: every kind's name with a letter dropped, or in
// capitals, is taken for a misspelling of it.
func TestKindsMisspelt(t *testing.T) {
	for _, k := range decl.Kinds {
		for _, typo := range []string{k.Name[:len(k.Name)-1], strings.ToUpper(k.Name)} {
			if got, ok := decl.Misspelling(typo); !ok || got != k.Name {
				t.Errorf("Misspelling(%q) = %q, %v, want %s", typo, got, ok, k.Name)
			}
		}
	}
}
