package testcrd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/mut2cel/mut2cel/decl"
)

// updatePlaceholder stands for the declared list in a schema of the update
// table.
const updatePlaceholder = "$UPDATE"

// UpdateExample is one example of testdata/update/constraints.yaml, which
// the file's header describes.
type UpdateExample struct {
	Name        string
	Cites       string
	Constraints decl.Constraints
	schema      string // JSON, with updatePlaceholder for the list
	Transitions []UpdateTransition
}

// UpdateTransition is an update and the constraints that deny it, each on
// its own.
type UpdateTransition struct {
	Old, New string
	DeniedBy decl.Constraints
}

// Schema returns the example's schema, as JSON, declaring c.
func (ex UpdateExample) Schema(c decl.Constraints) string {
	list, _ := json.Marshal(c.List())
	return strings.ReplaceAll(ex.schema, `"`+updatePlaceholder+`"`, string(list))
}

// Combinations lists every non-empty set of the example's constraints.
func (ex UpdateExample) Combinations() []decl.Constraints {
	var out []decl.Constraints
	for sub := ex.Constraints; sub != 0; sub = (sub - 1) & ex.Constraints {
		out = append(out, sub)
	}
	return out
}

// Denies reports whether an update is denied under c (semantics.md 5).
func (tr UpdateTransition) Denies(c decl.Constraints) bool { return tr.DeniedBy&c != 0 }

// ReadUpdateTable reads the table at path, given from a package directory
// as "../testdata/update/constraints.yaml".
func ReadUpdateTable(tb testing.TB, path string) []UpdateExample {
	tb.Helper()
	return readTable(tb, path, parseUpdateTable)
}

type updateFile struct {
	Examples []updateExampleYAML `yaml:"examples"`
}

type updateExampleYAML struct {
	Name        string                 `yaml:"name"`
	Cites       string                 `yaml:"cites"`
	Constraints []string               `yaml:"constraints"`
	Schema      yaml.Node              `yaml:"schema"`
	Transitions []updateTransitionYAML `yaml:"transitions"`
}

type updateTransitionYAML struct {
	Old      yaml.Node `yaml:"old"`
	New      yaml.Node `yaml:"new"`
	DeniedBy *[]string `yaml:"deniedBy"`
}

func parseUpdateTable(path string, data []byte) ([]UpdateExample, error) {
	var f updateFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(f.Examples) == 0 {
		return nil, fmt.Errorf("%s: no examples", path)
	}
	var out []UpdateExample
	seen := map[string]bool{}
	for _, e := range f.Examples {
		ex, err := updateExample(e)
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

func updateExample(e updateExampleYAML) (UpdateExample, error) {
	ex := UpdateExample{Name: e.Name, Cites: e.Cites}
	if e.Name == "" || e.Cites == "" {
		return ex, fmt.Errorf("name and cites are required")
	}
	var err error
	if ex.Constraints, err = decl.ParseUpdate(e.Constraints); err != nil {
		return ex, fmt.Errorf("constraints: %v", err)
	}
	if len(e.Transitions) == 0 {
		return ex, fmt.Errorf("no transitions")
	}
	if ex.schema, err = jsonOf(&e.Schema); err != nil {
		return ex, fmt.Errorf("schema: %v", err)
	}
	if !strings.Contains(ex.schema, `"`+updatePlaceholder+`"`) {
		return ex, fmt.Errorf("schema: no %s for the declared list", updatePlaceholder)
	}
	for _, t := range e.Transitions {
		var tr UpdateTransition
		if tr.Old, err = jsonOf(&t.Old); err == nil {
			tr.New, err = jsonOf(&t.New)
		}
		if err == nil && t.DeniedBy == nil {
			err = fmt.Errorf("deniedBy is required ([] when no constraint denies the update)")
		}
		if err == nil && len(*t.DeniedBy) > 0 {
			tr.DeniedBy, err = decl.ParseUpdate(*t.DeniedBy)
		}
		if err == nil && tr.DeniedBy&^ex.Constraints != 0 {
			err = fmt.Errorf("deniedBy %s names constraints the example is not tried with", tr.DeniedBy)
		}
		if err != nil {
			return ex, fmt.Errorf("transition on line %d: %v", t.Old.Line, err)
		}
		ex.Transitions = append(ex.Transitions, tr)
	}
	return ex, nil
}
