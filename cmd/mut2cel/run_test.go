package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/testkit/golden"
	"github.com/mut2cel/mut2cel/translate"
)

// fakeTranslate stands in for the translator, which is written
// separately: it turns x-kubernetes-mutability: Immutable into a
// transition rule and reports any other value as a problem. It records the
// options it was called with.
func fakeTranslate(doc map[string]interface{}, opts translate.Options) (*translate.Result, error) {
	lastOptions = opts
	var edits []edit.Edit
	var problems []translate.Problem
	walkMaps(doc, nil, func(path []interface{}, m map[string]interface{}) {
		switch v, ok := m["x-kubernetes-mutability"]; {
		case !ok:
		case v == "Immutable":
			edits = append(edits, edit.Edit{Path: path, Remove: []string{"x-kubernetes-mutability"},
				AddRules: []edit.Rule{{Rule: "self == oldSelf", Message: "is immutable"}}})
		default:
			problems = append(problems, translate.Problem{Path: append(path, "x-kubernetes-mutability"),
				Detail: fmt.Sprintf("unknown value %q: use Immutable, AddOnly or RemoveOnly", v)})
		}
	})
	if problems != nil {
		return nil, &translate.Error{Problems: problems}
	}
	return &translate.Result{Edits: edits}, nil
}

var lastOptions translate.Options

func walkMaps(v interface{}, path []interface{}, f func([]interface{}, map[string]interface{})) {
	switch t := v.(type) {
	case map[string]interface{}:
		f(path, t)
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			walkMaps(t[k], append(path[:len(path):len(path)], k), f)
		}
	case []interface{}:
		for i, x := range t {
			walkMaps(x, append(path[:len(path):len(path)], i), f)
		}
	}
}

type runCase struct {
	name   string
	args   []string
	stdin  string
	code   int
	stdout string // golden file under testdata/, or the exact text when it has no ".golden" suffix
	stderr []string
	// moreStderr lets a failed run print lines beyond the wanted ones,
	// such as a compiler's report; otherwise each wanted text is one line.
	moreStderr bool
	// translator stands in for translate.Translate when set.
	translator translator
	// terminal makes stderr a terminal, where progress is reported at
	// every step.
	terminal bool
}

func TestRun(t *testing.T) {
	crd := readFile(t, "testdata/crd.yaml")
	for _, c := range []runCase{{
		name: "stdin", args: []string{"translate"}, stdin: crd,
		stdout: "crd.golden",
	}, {
		name: "stdin dash", args: []string{"translate", "-"}, stdin: crd,
		stdout: "crd.golden",
	}, {
		name: "file", args: []string{"translate", "testdata/crd.yaml"},
		stdout: "crd.golden",
	}, {
		// Documents that are not CRDs pass through, and are counted, one
		// line an input; a run that finds no CRD at all did nothing, and
		// fails.
		name: "no CRD", args: []string{"translate", "testdata/configmap.yaml"},
		code: exitError,
		stderr: []string{
			"testdata/configmap.yaml: 1 document is not a CustomResourceDefinition (kind: ConfigMap)",
			"no CustomResourceDefinition found in testdata/configmap.yaml",
		},
	}, {
		name: "no CRD in standard input", args: []string{"translate"}, stdin: "kind: Service\n---\nkind: Deployment\n---\nkind: Service\n---\na: 1\n",
		code: exitError,
		stderr: []string{
			"<stdin>: 4 documents are not CustomResourceDefinitions (kinds: Deployment, Service, no kind)",
			"no CustomResourceDefinition found in <stdin>",
		},
	}, {
		name: "files are joined with separators", args: []string{"translate", "testdata/configmap.yaml", "-", "testdata/crd.yaml"},
		stdin:  "---\nkind: Stdin\n",
		stdout: "joined.golden",
		stderr: []string{
			"testdata/configmap.yaml: 1 document is not a CustomResourceDefinition (kind: ConfigMap)",
			"<stdin>: 1 document is not a CustomResourceDefinition (kind: Stdin)",
		},
	}, {
		// crd.json has objects on one line inside indented ones: written
		// anew, it changes outside the edits, and translate says so.
		name: "json", args: []string{"translate", "testdata/crd.json"},
		stdout: "crd-json.golden",
		stderr: []string{"testdata/crd.json:1: document 1 (CustomResourceDefinition/jsons.example.com): warning: the document cannot be edited line by line"},
	}, {
		name: "directory", args: []string{"translate", "testdata/dir"},
		stdout: "dir.golden",
		stderr: []string{
			"testdata/dir/a.json: 1 document is not a CustomResourceDefinition (kind: ConfigMap)",
			"testdata/dir/zzz.yaml: 1 document is not a CustomResourceDefinition (kind: Last)",
		},
	}, {
		name: "problems", args: []string{"translate", "testdata/crd.yaml", "testdata/bad-crd.yaml"},
		code: exitError,
		stderr: []string{
			"testdata/bad-crd.yaml: 1 document is not a CustomResourceDefinition (kind: ConfigMap)",
			"testdata/bad-crd.yaml:22: document 2 (CustomResourceDefinition/gadgets.example.com): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[a].x-kubernetes-mutability: unknown value \"Sometimes\": use Immutable, AddOnly or RemoveOnly",
			"testdata/bad-crd.yaml:25: document 2 (CustomResourceDefinition/gadgets.example.com): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[b].x-kubernetes-mutability: unknown value \"Never\": use Immutable, AddOnly or RemoveOnly",
		},
	}, {
		name: "every input reports", args: []string{"translate", "missing.yaml", "-", "testdata/bad-crd.yaml"},
		stdin: "a: [1,\n", code: exitError,
		stderr: []string{
			"testdata/bad-crd.yaml: 1 document is not a CustomResourceDefinition (kind: ConfigMap)",
			"missing.yaml: no such file or directory",
			"<stdin>:1: did not find expected node content",
			"testdata/bad-crd.yaml:22: document 2",
			"testdata/bad-crd.yaml:25: document 2",
		},
	}, {
		name: "helm template", args: []string{"translate"}, stdin: "kind: X\n---\nname: {{ .Release.Name }}\n",
		code: exitError, stderr: []string{"<stdin>:3: document 2 is a Helm template"},
	}, {
		name: "no manifests", args: []string{"translate", "--check", "testdata/empty.yaml"},
		code: exitError, stderr: []string{"no manifests found in testdata/empty.yaml: it holds no YAML or JSON document"},
	}, {
		name: "no manifests, patch", args: []string{"patch", "--dir", t.TempDir(), "testdata/empty.yaml"},
		code: exitError, stderr: []string{"no manifests found in testdata/empty.yaml: it holds no YAML or JSON document"},
	}, {
		name: "no manifests, cost", args: []string{"cost", "testdata/empty.yaml"},
		code: exitError, stderr: []string{"no manifests found in testdata/empty.yaml: it holds no YAML or JSON document"},
	}, {
		name: "no manifests, verify", args: []string{"verify", "testdata/empty.yaml"},
		code: exitError, stderr: []string{"no manifests found in testdata/empty.yaml: it holds no YAML or JSON document"},
	}} {
		c.translator = fakeTranslate
		t.Run(c.name, func(t *testing.T) { checkRun(t, c) })
	}
}

func TestKubeVersionFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want translate.KubeVersion
	}{
		{[]string{"translate"}, translate.DefaultKubeVersion},
		{[]string{"translate", "--kube-version", "1.33"}, translate.KubeVersion{Major: 1, Minor: 33}},
		{[]string{"translate", "--kube-version=v1.29"}, translate.KubeVersion{Major: 1, Minor: 29}},
	} {
		var out, errOut bytes.Buffer
		code := runWith(&env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, translate: fakeTranslate}, append(c.args, "testdata/crd.yaml"))
		if code != exitOK || runTarget(lastOptions) != c.want {
			t.Errorf("run(%q) = %d, translated for %v; want 0, %v (%s)", c.args, code, runTarget(lastOptions), c.want, errOut.String())
		}
	}
}

func TestUsage(t *testing.T) {
	for _, c := range []runCase{
		{name: "help flag", args: []string{"--help"}, stdout: "Usage: mut2cel <command>"},
		{name: "h flag", args: []string{"-h"}, stdout: "Usage: mut2cel <command>"},
		{name: "help", args: []string{"help"}, stdout: "Usage: mut2cel <command>"},
		{name: "help translate", args: []string{"help", "translate"}, stdout: "Usage: mut2cel translate [flags] [PATH...]"},
		{name: "translate help", args: []string{"translate", "--help"}, stdout: "--kube-version X.Y"},
		{name: "translate h", args: []string{"translate", "-h"}, stdout: "Usage: mut2cel translate"},
		{name: "version", args: []string{"version"}, stdout: "mut2cel "},
		{name: "no command", args: nil, code: exitUsage, stderr: []string{"Usage: mut2cel <command>"}},
		{name: "unknown command", args: []string{"frobnicate"}, code: exitUsage,
			stderr: []string{"mut2cel: unknown command \"frobnicate\"\n", "Usage: mut2cel <command>"}},
		{name: "misspelt command", args: []string{"tranlsate"}, code: exitUsage,
			stderr: []string{`mut2cel: unknown command "tranlsate"; did you mean "translate"?`, "Usage: mut2cel <command>"}},
		// The help names every form of declaration and where it is written.
		{name: "help text", args: []string{"help"}, stdout: "help.golden"},
		{name: "group without a cluster", args: []string{"audit", "--group", "example.com", "x.yaml"}, code: exitUsage,
			stderr: []string{"mut2cel audit: --group selects CRDs of a cluster: give --cluster (or --kubeconfig or --context) too", "Usage: mut2cel audit"}},
		{name: "audit, no pairs", args: []string{"audit", "--pairs", "0"}, code: exitUsage,
			stderr: []string{"mut2cel audit: --pairs and --jobs must be positive, got 0 and", "Usage: mut2cel audit"}},
		{name: "unknown flag", args: []string{"translate", "--frob"}, code: exitUsage,
			stderr: []string{"mut2cel translate: unknown flag: --frob", "Usage: mut2cel translate [flags] [PATH...]"}},
		{name: "negative bound", args: []string{"translate", "--max-length", "-5", "../../examples/gatewayclass.yaml"}, code: exitUsage,
			stderr: []string{"mut2cel translate: --max-length, --max-items and --max-properties must not be negative (0, the default, lets translate choose), got -5, 0 and 0"}},
		{name: "bad kube version", args: []string{"translate", "--kube-version", "1.2"}, code: exitUsage,
			stderr: []string{"Kubernetes version 1.2 is not supported: use 1.29 through 1.37", "Usage: mut2cel translate"}},
		{name: "malformed kube version", args: []string{"translate", "--kube-version=latest"}, code: exitUsage,
			stderr: []string{`invalid Kubernetes version "latest"`}},
		{name: "help unknown", args: []string{"help", "frobnicate"}, code: exitUsage, stderr: []string{"Usage: mut2cel <command>"}},
		{name: "version args", args: []string{"version", "x"}, code: exitUsage, stderr: []string{"unexpected arguments"}},
	} {
		t.Run(c.name, func(t *testing.T) { checkRun(t, c) })
	}
}

// checkRun runs a case and compares exit code, stdout (exactly, or with a
// golden file) and stderr (each wanted text must appear, and nothing else
// may be there when the run succeeds).
func checkRun(t *testing.T, c runCase) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	tr := c.translator
	if tr == nil {
		tr = translate.Translate
	}
	code := runWith(&env{stdin: strings.NewReader(c.stdin), stdout: &stdout, stderr: &stderr, translate: tr, terminal: c.terminal}, c.args)
	if code != c.code {
		t.Errorf("run(%q) = %d, want %d; stderr:\n%s", c.args, code, c.code, stderr.String())
	}
	switch {
	case strings.HasSuffix(c.stdout, ".golden"):
		golden.Check(t, filepath.Join("testdata", c.stdout), stdout.Bytes())
	case c.code == exitOK && !strings.Contains(c.stdout, "\n") && c.stdout != "":
		if !strings.Contains(stdout.String(), c.stdout) {
			t.Errorf("run(%q) stdout = %q, want it to contain %q", c.args, stdout.String(), c.stdout)
		}
	case stdout.String() != c.stdout:
		t.Errorf("run(%q) stdout = %q, want %q", c.args, stdout.String(), c.stdout)
	}
	for _, want := range c.stderr {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("run(%q) stderr = %q, want it to contain %q", c.args, stderr.String(), want)
		}
	}
	if c.code != exitOK && !c.moreStderr && !strings.Contains(stderr.String(), "Usage: ") && len(strings.Split(strings.TrimSpace(stderr.String()), "\n")) != len(c.stderr) {
		t.Errorf("run(%q) stderr has other lines than the %d wanted:\n%s", c.args, len(c.stderr), stderr.String())
	}
	if len(c.stderr) == 0 && stderr.Len() > 0 {
		t.Errorf("run(%q) stderr = %q, want nothing", c.args, stderr.String())
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
