package testcrd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// ValueNames are the declared values by the letters verdict tables write
// them with.
var ValueNames = map[byte]string{'I': "Immutable", 'A': "AddOnly", 'R': "RemoveOnly"}

// placeholder stands for the declared value in a schema of the table.
const placeholder = "$VALUE"

// Verdicts is the verdict table of testdata/kep/examples.yaml, which the
// file's header describes.
type Verdicts struct {
	KEP  []Example // the examples of the KEP "Immutable Fields"
	Blog []Example // the patterns of the blog post on CEL immutability
}

// Example is a schema that declares a value, the values it is tried with
// and updates with the verdicts they get.
type Example struct {
	Name        string
	Cites       string
	Values      string // letters of ValueNames
	schema      string // JSON, with placeholder for the value
	Transitions []Transition
}

// Transition is an update: old and new object as JSON, and the letters of
// the values under which it is allowed.
type Transition struct {
	Old, New string
	Allow    string
}

// Schema returns the example's schema, as JSON, declaring value.
func (ex Example) Schema(value string) string {
	return strings.ReplaceAll(ex.schema, placeholder, value)
}

// Allows reports whether the update is allowed under the value of letter.
func (tr Transition) Allows(letter byte) bool {
	return strings.IndexByte(tr.Allow, letter) >= 0
}

// ReadVerdicts reads the verdict table at path, which tests in a package
// directory give as "../testdata/kep/examples.yaml".
func ReadVerdicts(tb testing.TB, path string) Verdicts {
	tb.Helper()
	return readTable(tb, path, parseVerdicts)
}

// readTable reads and parses a table file, failing the test on any error.
func readTable[T any](tb testing.TB, path string, parse func(string, []byte) (T, error)) T {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	v, err := parse(path, data)
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

type verdictsFile struct {
	KEP  []exampleYAML `yaml:"kep"`
	Blog []exampleYAML `yaml:"blog"`
}

type exampleYAML struct {
	Name        string           `yaml:"name"`
	Cites       string           `yaml:"cites"`
	Values      string           `yaml:"values"`
	Schema      yaml.Node        `yaml:"schema"`
	Transitions []transitionYAML `yaml:"transitions"`
}

type transitionYAML struct {
	Old   yaml.Node `yaml:"old"`
	New   yaml.Node `yaml:"new"`
	Allow *string   `yaml:"allow"`
}

// parseVerdicts decodes the table as YAML 1.2 (so that a property named n
// or y stays a string) and checks every example. Errors name the file and,
// for an example, the line of its schema.
func parseVerdicts(path string, data []byte) (Verdicts, error) {
	var f verdictsFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return Verdicts{}, fmt.Errorf("%s: %v", path, err)
	}
	if len(f.KEP) == 0 {
		return Verdicts{}, fmt.Errorf("%s: no kep examples", path)
	}
	var v Verdicts
	var err error
	seen := map[string]bool{}
	if v.KEP, err = examples(path, f.KEP, seen); err != nil {
		return Verdicts{}, err
	}
	if v.Blog, err = examples(path, f.Blog, seen); err != nil {
		return Verdicts{}, err
	}
	return v, nil
}

func examples(path string, in []exampleYAML, seen map[string]bool) ([]Example, error) {
	var out []Example
	for _, e := range in {
		ex, err := example(e)
		if err == nil && seen[ex.Name] {
			err = fmt.Errorf("the name is taken")
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: example %q: %v", path, e.Schema.Line, e.Name, err)
		}
		seen[ex.Name] = true
		out = append(out, ex)
	}
	return out, nil
}

func example(e exampleYAML) (Example, error) {
	ex := Example{Name: e.Name, Cites: e.Cites, Values: e.Values}
	switch {
	case e.Name == "" || e.Cites == "":
		return ex, fmt.Errorf("name and cites are required")
	case e.Values == "" || !letters(e.Values, "IAR"):
		return ex, fmt.Errorf("values %q: want some of the letters I, A, R, each once", e.Values)
	case len(e.Transitions) == 0:
		return ex, fmt.Errorf("no transitions")
	}
	var err error
	if ex.schema, err = jsonOf(&e.Schema); err != nil {
		return ex, fmt.Errorf("schema: %v", err)
	}
	if !strings.Contains(ex.schema, `"`+placeholder+`"`) {
		return ex, fmt.Errorf("schema: no %s for the declared value", placeholder)
	}
	for _, t := range e.Transitions {
		tr, err := transition(t, e.Values)
		if err != nil {
			return ex, fmt.Errorf("transition on line %d: %v", t.Old.Line, err)
		}
		ex.Transitions = append(ex.Transitions, tr)
	}
	return ex, nil
}

func transition(t transitionYAML, values string) (Transition, error) {
	var tr Transition
	var err error
	if tr.Old, err = jsonOf(&t.Old); err != nil {
		return tr, fmt.Errorf("old: %v", err)
	}
	if tr.New, err = jsonOf(&t.New); err != nil {
		return tr, fmt.Errorf("new: %v", err)
	}
	if t.Allow == nil || !letters(*t.Allow, values) {
		return tr, fmt.Errorf("allow: want some of the letters %s, each once, or \"\"", values)
	}
	tr.Allow = *t.Allow
	return tr, nil
}

// jsonOf encodes a mapping as JSON. The tests decode it again with their
// own YAML or JSON decoder, which read JSON alike.
func jsonOf(n *yaml.Node) (string, error) {
	if n.Kind != yaml.MappingNode {
		return "", fmt.Errorf("want a mapping")
	}
	var v interface{}
	if err := n.Decode(&v); err != nil {
		return "", err
	}
	data, err := json.Marshal(v)
	return string(data), err
}

// letters reports whether s holds only letters of set, none twice.
func letters(s, set string) bool {
	for i := range s {
		if strings.IndexByte(set, s[i]) < 0 || strings.IndexByte(s[i+1:], s[i]) >= 0 {
			return false
		}
	}
	return true
}
