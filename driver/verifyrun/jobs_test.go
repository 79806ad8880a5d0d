package verifyrun

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// crdYAML is a CRD named name whose field a has the schema extensions
// given (a declaration, or nothing).
func crdYAML(name, a string) string {
	return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ` + name + `
spec:
  group: example.com
  names: {kind: Thing, plural: ` + strings.Split(name, ".")[0] + `}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              a: {type: string, maxLength: 16` + a + `}
`
}

const (
	widgets   = "widgets.example.com"
	immutable = ", x-kubernetes-mutability: Immutable"
)

// published is the CRD as its owner publishes it, with a rule of theirs.
var published = crdYAML(widgets, `, x-kubernetes-validations: [{rule: "self == oldSelf"}]`)

// annotatedOnly keeps its declaration in the annotation, written by hand:
// it was never translated.
const annotatedOnly = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
  annotations:
    mut2cel.io/declarations: |
      v1:
        .spec.a:
          x-kubernetes-mutability: Immutable
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              a: {type: string, maxLength: 16}
`

// declarationsFor declares field a of the CRD name Immutable.
func declarationsFor(name string) string {
	return "apiVersion: mut2cel.io/v1alpha1\nkind: Declarations\ncrd: " + name +
		"\nfields:\n  .spec.a:\n    x-kubernetes-mutability: Immutable\n"
}

// rewritten is what translate -w writes for a CRD with a declaration.
func rewritten(t *testing.T) string {
	t.Helper()
	in := batch.Input{Name: "w.yaml", Data: []byte(crdYAML(widgets, immutable))}
	r := batch.Translate(in, func(doc map[string]interface{}) (*translate.Result, error) {
		return translate.Translate(doc, translate.Options{})
	})
	if len(r.Diags) > 0 {
		t.Fatalf("translating the fixture: %v", r.Diags)
	}
	return string(r.Output())
}

// twoVersions is widgets served as v1 and v2, field a declared Immutable
// in v1 only.
var twoVersions = strings.Replace(crdYAML(widgets, immutable), "  versions:\n", `  versions:
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              a: {type: string, maxLength: 16}
`, 1)

// rewrittenAllVersions is what translate -w --all-versions writes for
// twoVersions: declarations recorded for both versions.
func rewrittenAllVersions(t *testing.T) string {
	t.Helper()
	in := batch.Input{Name: "w.yaml", Data: []byte(twoVersions)}
	r := batch.Translate(in, func(doc map[string]interface{}) (*translate.Result, error) {
		return translate.Translate(doc, translate.Options{AllServedVersions: true})
	})
	if len(r.Diags) > 0 {
		t.Fatalf("translating the fixture: %v", r.Diags)
	}
	return string(r.Output())
}

// The CRDs a job may be tested against.
const (
	testedInput       = "the input itself"
	testedTranslation = "its translation"
	testedAgainst     = "its namesake in --against"
)

// TestJobs checks which CRD's declarations are held against which CRD's
// rules, and what keeps a CRD from being verified.
func TestJobs(t *testing.T) {
	for _, c := range []struct {
		name         string
		input        string
		against      string // --against's content; none when empty
		declarations string // a declarations file's content; none when empty
		allVersions  bool
		tested       string // what the one job's CRD under test is; no job when empty
		diags        []string
		warnings     []string
	}{{
		name: "declared in the schema", input: crdYAML(widgets, immutable), tested: testedTranslation,
	}, {
		name: "rewritten by translate -w", input: rewritten(t), tested: testedInput,
	}, {
		name: "declared in the annotation, never translated", input: annotatedOnly, tested: testedTranslation,
	}, {
		name: "no declarations", input: crdYAML(widgets, ""),
		diags: []string{"no declarations in <in>: declare some in the CRD schemas (x-kubernetes-mutability, x-kubernetes-key-mutability, x-kubernetes-update or x-kubernetes-unions) or in the mut2cel.io/declarations annotation, or give --declarations"},
	}, {
		name: "no declarations, with --all-versions", input: crdYAML(widgets, ""), allVersions: true,
		diags: []string{"no declarations in <in>: declare some in the CRD schemas (x-kubernetes-mutability, x-kubernetes-key-mutability, x-kubernetes-update or x-kubernetes-unions) or in the mut2cel.io/declarations annotation, or give --declarations"},
	}, {
		name: "no declarations in one CRD of two", input: crdYAML("gadgets.example.com", "") + "---\n" + crdYAML(widgets, immutable),
		tested: testedTranslation,
	}, {
		name: "cannot be translated", input: crdYAML(widgets, ", x-kubernetes-mutability: Sometimes"),
		diags: []string{`<in>:1: document 1 (CustomResourceDefinition/widgets.example.com): cannot be translated, so there is nothing to verify: `},
	}, {
		name: "cannot be translated, with --all-versions", input: crdYAML(widgets, ", x-kubernetes-mutability: Sometimes"), allVersions: true,
		diags: []string{`<in>:1: document 1 (CustomResourceDefinition/widgets.example.com): cannot be translated, so there is nothing to verify: `},
	}, {
		name: "no CRD", input: "kind: ConfigMap\n---\nkind: Namespace\n",
		warnings: []string{"<in>: 2 documents are not CustomResourceDefinitions (kinds: ConfigMap, Namespace)"},
		diags:    []string{"no CustomResourceDefinition found in <in>"},
	}, {
		name: "other documents beside a CRD", input: "kind: ConfigMap\n---\n" + crdYAML(widgets, immutable), tested: testedTranslation,
		warnings: []string{"<in>: 1 document is not a CustomResourceDefinition (kind: ConfigMap)"},
	}, {
		name: "a misspelt key", input: crdYAML(widgets, ", x-kubernetes-mutabilty: Immutable"),
		diags: []string{`<in>:20: document 1 (CustomResourceDefinition/widgets.example.com): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[a].x-kubernetes-mutabilty: Invalid value: unknown key "x-kubernetes-mutabilty": did you mean x-kubernetes-mutability?`},
	}, {
		name: "a misspelt key, with --against", input: crdYAML(widgets, ", x-kubernetes-mutabilty: Immutable"), against: published,
		diags: []string{`<in>:20: document 1 (CustomResourceDefinition/widgets.example.com): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[a].x-kubernetes-mutabilty: Invalid value: unknown key "x-kubernetes-mutabilty": did you mean x-kubernetes-mutability?`},
	}, {
		name: "a misspelt annotation", input: strings.Replace(annotatedOnly, "mut2cel.io/declarations:", "mut2cel.io/declaration:", 1),
		diags: []string{`<in>:6: document 1 (CustomResourceDefinition/widgets.example.com): metadata.annotations[mut2cel.io/declaration]: Invalid value: unknown annotation "mut2cel.io/declaration": did you mean mut2cel.io/declarations?`},
	}, {
		name: "--against", input: crdYAML(widgets, immutable), against: published, tested: testedAgainst,
	}, {
		name: "--against a rewritten file's namesake", input: rewritten(t), against: published, tested: testedAgainst,
	}, {
		name: "--against without the name", input: crdYAML(widgets, immutable), against: crdYAML("gadgets.example.com", ""),
		diags: []string{`<in>:1: document 1 (CustomResourceDefinition/widgets.example.com): no CRD named "widgets.example.com" in <against>`},
	}, {
		name: "--against with two CRDs of one name", input: crdYAML(widgets, immutable),
		against: published + "---\n" + crdYAML(widgets, ""), tested: testedAgainst,
		diags: []string{`<against>:21: document 2 (CustomResourceDefinition/widgets.example.com): a second CRD named "widgets.example.com": --against must hold one CRD per name`},
	}, {
		name: "--against a file translated with --all-versions, without it", input: twoVersions,
		against: rewrittenAllVersions(t), tested: testedAgainst,
		warnings: []string{"<in>:1: document 1 (CustomResourceDefinition/widgets.example.com): warning:"}, // TestUndeclaredVersions reads it
	}, {
		name: "--against a file translated with --all-versions, with it", input: twoVersions, allVersions: true,
		against: rewrittenAllVersions(t), tested: testedAgainst,
	}, {
		name: "--declarations", input: crdYAML(widgets, ""), declarations: declarationsFor(widgets), tested: testedTranslation,
	}, {
		name: "--declarations with --against", input: crdYAML(widgets, ""), declarations: declarationsFor(widgets),
		against: published, tested: testedAgainst,
	}, {
		name: "--declarations for another CRD too", input: crdYAML(widgets, ""),
		declarations: declarationsFor(widgets) + "---\n" + declarationsFor("gadgets.example.com"), tested: testedTranslation,
		warnings: []string{"<decl>:8: warning: crd gadgets.example.com: no CRD of this name in the inputs"},
	}, {
		name: "--declarations for no input CRD", input: crdYAML(widgets, immutable), declarations: declarationsFor("gadgets.example.com"),
		tested: testedTranslation,
		diags:  []string{"<decl>:1: crd gadgets.example.com: no CRD of this name in the inputs"},
	}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"<in>": filepath.Join(dir, "in.yaml")}
			write(t, files["<in>"], c.input)
			o := Options{Translate: translate.Options{AllServedVersions: c.allVersions}}
			if c.against != "" {
				files["<against>"] = filepath.Join(dir, "against.yaml")
				write(t, files["<against>"], c.against)
				o.Against = files["<against>"]
			}
			if c.declarations != "" {
				files["<decl>"] = filepath.Join(dir, "decl.yaml")
				write(t, files["<decl>"], c.declarations)
				sets, diags := batch.ReadDeclarations([]string{files["<decl>"]})
				if len(diags) > 0 {
					t.Fatalf("ReadDeclarations: %v", diags)
				}
				o.Sets, o.Translate.Declarations = sets, sets.Sets
			}
			jobs, warnings, diags := Jobs([]string{files["<in>"]}, o)
			checkDiags(t, "diagnostics", diags, c.diags, files)
			checkDiags(t, "warnings", warnings, c.warnings, files)
			if c.tested == "" {
				if len(jobs) > 0 {
					t.Errorf("Jobs = %d jobs, want none", len(jobs))
				}
				return
			}
			if len(jobs) != 1 {
				t.Fatalf("Jobs = %d jobs, want one against %s", len(jobs), c.tested)
			}
			job := jobs[0]
			if len(reference.DeclaringVersions(job.Declared.Value)) == 0 || job.Declared.Name() != widgets {
				t.Errorf("Jobs: the declared CRD %s has no declarations", job.Declared.Name())
			}
			if got := testedKind(t, job, files); got != c.tested {
				t.Errorf("Jobs: tested against %s, want %s", got, c.tested)
			}
		})
	}
}

// TestUndeclaredVersions checks the warning that the CRD under test records
// declarations for a version the declared CRD leaves undeclared.
func TestUndeclaredVersions(t *testing.T) {
	dir := t.TempDir()
	in, against := filepath.Join(dir, "in.yaml"), filepath.Join(dir, "against.yaml")
	write(t, in, twoVersions)
	write(t, against, rewrittenAllVersions(t))
	_, warnings, diags := Jobs([]string{in}, Options{Against: against})
	want := "the CRD under test records declarations for version v2, which these declarations leave undeclared, " +
		"so its rules there will disagree with them; if it was translated with --all-versions, verify with --all-versions too"
	if len(diags) > 0 || len(warnings) != 1 || warnings[0].Detail != want || !warnings[0].IsWarning() {
		t.Errorf("Jobs = warnings %v, diagnostics %v; want the one warning %q", warnings, diags, want)
	}
}

// testedKind says which CRD job tests: the input as it is, the --against
// CRD of its name, or a translation made by Jobs.
func testedKind(t *testing.T, job Job, files map[string]string) string {
	t.Helper()
	for _, kind := range []struct{ file, name string }{{"<against>", testedAgainst}, {"<in>", testedInput}} {
		if files[kind.file] == "" {
			continue
		}
		crds := readCRDs(t, files[kind.file])
		if reflect.DeepEqual(job.Tested, crds[len(crds)-1].Value) {
			return kind.name
		}
	}
	if translate.Rewritten(job.Tested) {
		return testedTranslation
	}
	return "an unknown CRD"
}

func readCRDs(t *testing.T, path string) []batch.InputCRD {
	t.Helper()
	inputs, diags := batch.Collect([]string{path}, nil)
	crds, _, more := batch.CRDs(inputs)
	if len(diags)+len(more) > 0 || len(crds) == 0 {
		t.Fatalf("reading %s: %v %v", path, diags, more)
	}
	return crds
}

// checkDiags checks that each diagnostic starts with the wanted text, the
// names of files (<in>, <against>, <decl>) replaced by their paths, and
// long lines unwrapped (their length depends on the temporary directory).
func checkDiags(t *testing.T, what string, got []batch.Diagnostic, want []string, files map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("Jobs %s = %v, want %d: %q", what, got, len(want), want)
		return
	}
	for i, w := range want {
		for name, path := range files {
			w = strings.ReplaceAll(w, name, path)
		}
		if line := strings.ReplaceAll(got[i].String(), "\n  ", " "); !strings.HasPrefix(line, w) {
			t.Errorf("Jobs %s[%d] = %q, want it to start with %q", what, i, line, w)
		}
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
