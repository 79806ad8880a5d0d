package batch

import (
	"reflect"
	"testing"

	"github.com/mut2cel/mut2cel/manifest"
)

// TestCensus counts the documents of inputs: the notes on those that are
// not CRDs, one an input, and the error of a run that found no CRD.
func TestCensus(t *testing.T) {
	const crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a.example.com}\n"
	for _, c := range []struct {
		name   string
		inputs []Input
		paths  []string
		notes  []string
		noCRD  []string
	}{{
		name:   "CRDs only",
		inputs: []Input{{"a.yaml", []byte(crd + "---\n# only a comment\n")}},
		paths:  []string{"a.yaml"},
	}, {
		name: "other documents beside a CRD",
		inputs: []Input{
			{"a.yaml", []byte("kind: Service\n---\n" + crd + "---\nkind: Deployment\n---\nkind: Service\n")},
			{"b.yaml", []byte(crd)},
			{"c.json", []byte(`{"apiVersion": "v1", "kind": "ConfigMap"}`)},
		},
		paths: []string{"a.yaml", "b.yaml", "c.json"},
		notes: []string{
			"a.yaml: 3 documents are not CustomResourceDefinitions (kinds: Deployment, Service)",
			"c.json: 1 document is not a CustomResourceDefinition (kind: ConfigMap)",
		},
	}, {
		name:   "no CRD",
		inputs: []Input{{"a.yaml", []byte("kind: Service\n---\na: 1\n---\nkind: Service\n")}, {StdinName, []byte("kind: ConfigMap\n")}},
		paths:  []string{"a.yaml", "-"},
		notes: []string{
			"a.yaml: 3 documents are not CustomResourceDefinitions (kinds: Service, no kind)",
			"<stdin>: 1 document is not a CustomResourceDefinition (kind: ConfigMap)",
		},
		noCRD: []string{"no CustomResourceDefinition found in a.yaml, <stdin>"},
	}, {
		name:   "no CRD in standard input, read for want of a path",
		inputs: []Input{{StdinName, []byte("kind: ConfigMap\n---\nkind: ConfigMap\n")}},
		notes:  []string{"<stdin>: 2 documents are not CustomResourceDefinitions (kind: ConfigMap)"},
		noCRD:  []string{"no CustomResourceDefinition found in <stdin>"},
	}, {
		name:   "an input that does not parse counts nothing",
		inputs: []Input{{"bad.yaml", []byte("a: [1,\n")}},
		paths:  []string{"bad.yaml"},
		noCRD:  []string{"no CustomResourceDefinition found in bad.yaml"},
	}} {
		t.Run(c.name, func(t *testing.T) {
			census := &Census{}
			var returned []string
			for _, in := range c.inputs {
				f, _ := manifest.Parse(in.Name, in.Data)
				returned = append(returned, texts(census.Add(in.Name, f))...)
			}
			if got := texts(census.Notes()); !reflect.DeepEqual(got, c.notes) || !reflect.DeepEqual(returned, c.notes) {
				t.Errorf("Census notes = %q, Add returned %q; want %q", got, returned, c.notes)
			}
			if got := texts(census.NoCRD(c.paths)); !reflect.DeepEqual(got, c.noCRD) {
				t.Errorf("Census.NoCRD(%q) = %q, want %q", c.paths, got, c.noCRD)
			}
		})
	}
}

func texts(diags []Diagnostic) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.String())
	}
	return out
}
