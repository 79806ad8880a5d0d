//go:build unix

package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/mut2cel/mut2cel/backend/kustomize"
	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/mut2cel/mut2cel/testkit/hostile"
)

// The probes of issue 28 ("Robust under hostile input"): every input is
// generated here, nothing large is committed. Each run must end within
// probeTimeout with the exit code wanted, print no panic or stack, quote
// no control character unescaped, and touch no file unless it exits 0
// from a command that writes. make probe runs them; go test ./... too.

const probeTimeout = 20 * time.Second

// probeLine is the longest line a probe may print on standard error:
// messages shorten the paths and names they quote (a declared path of
// 10,000 steps made a line of 20 KB), and break long lines.
const probeLine = 2048

// probeCRD has one declared field, named by %s, and one plain field.
const probeCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
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
              %s: {type: string, maxLength: 63, x-kubernetes-mutability: Immutable}
              size: {type: integer}
`

// crdNamed is probeCRD with the declared field named name, written as the
// YAML text key.
func crdNamed(key string) string { return fmt.Sprintf(probeCRD, key) }

// probeCommands are the commands every hostile input is given to. out is
// the --dir of patch and policy.
func probeCommands(out string) map[string][]string {
	return map[string][]string{
		"translate":         {"translate"},
		"translate --check": {"translate", "--check"},
		"translate -w":      {"translate", "-w"},
		"patch":             {"patch", "--dir", out},
		"policy":            {"policy", "--dir", out},
		"cost":              {"cost"},
		"verify":            {"verify", "-q", "--pairs", "300"},
	}
}

// works are the exit codes of the commands on an input they can use, and
// whose translation changes the file.
var works = map[string]int{"translate": 0, "translate --check": 1, "translate -w": 0, "patch": 0, "policy": 0, "cost": 0, "verify": 0}

type probeInput struct {
	name string
	// make writes the input into dir and returns the PATH to give.
	make func(t *testing.T, dir string) string
	// codes are the exit codes by command; nil means 2 for every one.
	codes map[string]int
	// stderr is a text the standard error of every failed run holds.
	stderr string
}

func TestProbes(t *testing.T) {
	crd := readFile(t, "testdata/crd.yaml")
	file := func(name, data string) func(*testing.T, string) string {
		return func(t *testing.T, dir string) string {
			p := filepath.Join(dir, name)
			writeFile(t, p, data)
			return p
		}
	}
	nested := func(depth int, open, close string) string {
		return strings.Repeat(open, depth) + strings.Repeat(close, depth)
	}
	var inputs []probeInput
	for name, br := range map[string]string{"CR": "\r", "NEL": "\u0085", "LS": "\u2028", "PS": "\u2029"} {
		inputs = append(inputs, probeInput{name: "bare " + name + " line breaks",
			make:  file("crd.yaml", strings.Replace(crd, "\n", br+"# a comment"+br+"\n", 3)),
			codes: works})
	}
	// YAML 1.1, as kubectl reads it, takes y and Y, yes and 'true', on
	// and ON for one key: the last one won, and a declaration vanished.
	for _, keys := range [][2]string{{"y", "Y"}, {"y", "'true'"}, {"yes", "'true'"}, {"on", "ON"}} {
		twice := strings.Replace(crdNamed(keys[0]), "              size:", "              "+keys[1]+": {type: string}\n              size:", 1)
		inputs = append(inputs, probeInput{name: "duplicate keys " + keys[0] + " and " + keys[1], make: file("dup.yaml", twice), stderr: "is written twice"})
	}
	inputs = append(inputs,
		probeInput{name: "duplicate declaration key", make: file("dup.yaml", strings.Replace(crdNamed("a"), "x-kubernetes-mutability: Immutable}", "x-kubernetes-mutability: Immutable, x-kubernetes-mutability: AddOnly}", 1)),
			stderr: "is written twice"},
		probeInput{name: "FIFO", make: func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "fifo.yaml")
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skipf("no named pipes here: %v", err)
			}
			return p
		}, stderr: "a named pipe (FIFO), not a regular file"},
		probeInput{name: "passwd", make: file("passwd", "root:x:0:0:root:/root:/bin/bash\nbin:x:1:1:bin:/bin:/sbin/nologin\n"), stderr: "not a Kubernetes manifest"},
		probeInput{name: "a list", make: file("list.yaml", "- kind: CustomResourceDefinition\n"), stderr: "not a Kubernetes manifest"},
		probeInput{name: "a bare scalar", make: file("scalar.yaml", crd+"---\n42\n"), stderr: "not a Kubernetes manifest"},
		probeInput{name: "empty", make: file("empty.yaml", "\n\n# nothing\n---\n")},
		probeInput{name: "NUL bytes", make: file("nul.yaml", "kind: \x00\x00\x00\n")},
		probeInput{name: "not UTF-8", make: file("latin1.yaml", strings.Replace(crd, "Widgets", "Widg\xe9ts", 1))},
		probeInput{name: "deep flow nesting", make: file("deep.yaml", "apiVersion: v1\nkind: ConfigMap\ndata: "+nested(10000, "[", "]")+"\n")},
		probeInput{name: "deep nesting beside a CRD", make: file("deep.yaml", crd+"\n---\napiVersion: v1\nkind: ConfigMap\ndata: "+nested(5000, "{a: ", "}")+"\n"), codes: works},
		probeInput{name: "declaration 260 levels deep", make: file("deep.yaml", strings.Replace(crdNamed("b"), "              size:",
			"              a: "+nested(260, "{type: object, properties: {a: ", "}}")[:260*len("{type: object, properties: {a: ")]+
				"{type: string, maxLength: 4, x-kubernetes-mutability: Immutable}"+strings.Repeat("}}", 260)+"\n              size:", 1)),
			stderr: "more than the 100 mut2cel compiles"},
		probeInput{name: "billion laughs", make: file("laughs.yaml", laughs("apiVersion: v1\nkind: ConfigMap\n", "data"))},
		// CEL cannot escape the name, so no CRD rule can read it; a
		// policy reads it by its own name, and quotes it printably.
		probeInput{name: "control characters in a name", make: file("esc.yaml", crdNamed(`"x\e[31mred\e]0;title\a\u009b2J\u202e\r"`)),
			codes:  map[string]int{"translate": exitError, "translate --check": exitError, "translate -w": exitError, "patch": exitError, "policy": 0, "cost": exitError, "verify": exitError},
			stderr: `x\x1b[31mred\x1b]0;title\a\u009b2J\u202e\r`},
		probeInput{name: "many bad declarations", make: file("many.yaml", manyBad(300)), stderr: "too many problems: 290 more"},
		probeInput{name: "UTF-16", make: file("utf16.yaml", string(toUTF16(crd))), codes: works},
		probeInput{name: "BOM and CRLF", make: file("crlf.yaml", "\ufeff"+strings.ReplaceAll(crd, "\n", "\r\n")), codes: works},
		// A key of 1000 bytes in a flow mapping comes back from the
		// encoder as an explicit "? key": the document is reformatted,
		// which --check refuses.
		probeInput{name: "a long name", make: file("long.yaml", crdNamed(strings.Repeat("n", 1000))),
			codes:  map[string]int{"translate": 0, "translate --check": exitError, "translate -w": 0, "patch": 0, "policy": 0, "cost": 0, "verify": 0},
			stderr: "--check: the document cannot be edited line by line"},
	)
	for _, in := range inputs {
		for name := range probeCommands("") {
			t.Run(in.name+"/"+name, func(t *testing.T) {
				dir := t.TempDir()
				path := in.make(t, dir)
				args := probeCommands(filepath.Join(dir, "out"))[name]
				want, ok := in.codes[name]
				if !ok {
					want = exitError
				}
				r := runProbe(t, dir, append(args, path), "")
				if r.code != want {
					t.Fatalf("exit %d, want %d; stderr:\n%s", r.code, want, r.stderr)
				}
				if want == exitError && !strings.Contains(r.stderr, in.stderr) {
					t.Errorf("stderr does not say %q:\n%s", in.stderr, r.stderr)
				}
				r.untouched(t, want == exitOK && name == "translate -w", want == exitOK && (name == "patch" || name == "policy"))
			})
		}
	}
}

// TestProbeCases runs the probes that need more than one input or look
// at more than the exit code.
func TestProbeCases(t *testing.T) {
	declarations := "apiVersion: mut2cel.io/v1alpha1\nkind: Declarations\ncrd: widgets.example.com\n"
	for _, c := range []struct {
		name  string
		files map[string]string // written into the directory; DIR in args is the directory
		args  []string
		code  int
		// writes are the files a run may create or change.
		writes []string
		stdout io.Writer // io.Discard when nil
		// want are texts standard output (stdout: ...) or error must hold;
		// unwanted, texts standard error must not hold.
		want, unwanted []string
		// after checks the directory after the run.
		after func(t *testing.T, dir string, out []byte)
	}{{
		name:   "standard output on a full disk",
		files:  map[string]string{"crd.yaml": crdNamed("a")},
		args:   []string{"translate", "DIR/crd.yaml"},
		code:   exitError,
		stdout: fullWriter{},
		want:   []string{"cannot write to standard output"},
	}, {
		name:  "an unknown --bound-floor path",
		files: map[string]string{"crd.yaml": crdNamed("a")},
		args:  []string{"translate", "--bound-floor", ".spec.sise:maxLength=9", "DIR/crd.yaml"},
		code:  exitError,
		want:  []string{"--bound-floor .spec.sise:maxLength=9: no CRD given has a schema node at .spec.sise (did you mean .spec.size?)"},
	}, {
		name:  "patch beside the user's kustomization.yml",
		files: map[string]string{"crd.yaml": crdNamed("a"), "out/kustomization.yml": "resources: [crds.yaml]\n"},
		args:  []string{"patch", "--dir", "DIR/out", "DIR/crd.yaml"},
		code:  exitError,
		want:  []string{"out/kustomization.yml exists and was not written by mut2cel patch"},
	}, {
		name:   "patch updates its own Kustomization",
		files:  map[string]string{"crd.yaml": crdNamed("a"), "out/Kustomization": kustomize.Header},
		args:   []string{"patch", "--dir", "DIR/out", "DIR/crd.yaml"},
		writes: []string{"out/Kustomization"},
		after: func(t *testing.T, dir string, _ []byte) {
			if _, err := os.Stat(filepath.Join(dir, "out", "kustomization.yaml")); err == nil {
				t.Errorf("patch wrote kustomization.yaml beside Kustomization")
			}
		},
	}, {
		name:  "patch into a directory it cannot make",
		files: map[string]string{"crd.yaml": crdNamed("a"), "file": "not a directory\n"},
		args:  []string{"patch", "--dir", "DIR/file/out", "DIR/crd.yaml"},
		code:  exitError,
		want:  []string{"mut2cel patch: "},
	}, {
		name:  "verify -o yaml quotes the key on",
		files: map[string]string{"crd.yaml": crdNamed(`"on"`), "plain.yaml": strings.Replace(crdNamed(`"on"`), ", x-kubernetes-mutability: Immutable", "", 1)},
		args:  []string{"verify", "-q", "-o", "yaml", "--pairs", "200", "--counterexamples", "1", "--against", "DIR/plain.yaml", "DIR/crd.yaml"},
		code:  exitFinding,
		want:  []string{`stdout: "on": `},
		after: func(t *testing.T, _ string, out []byte) {
			if bytes.Contains(out, []byte(" on: ")) {
				t.Errorf("verify -o yaml wrote the key on bare:\n%s", out)
			}
		},
	}, {
		name:   "declarations file with aliases",
		files:  map[string]string{"crd.yaml": strings.Replace(crdNamed("a"), ", x-kubernetes-mutability: Immutable", "", 1), "d.yaml": declarations + "fields:\n  .spec.a: &imm {x-kubernetes-mutability: Immutable}\n  .spec.size: *imm\n"},
		args:   []string{"translate", "-w", "--declarations", "DIR/d.yaml", "DIR/crd.yaml"},
		writes: []string{"crd.yaml"},
	}, {
		name:  "declarations file of a billion laughs",
		files: map[string]string{"crd.yaml": crdNamed("a"), "d.yaml": laughs(declarations, "x") + "fields: {.spec.a: {x-kubernetes-mutability: Immutable}}\n"},
		args:  []string{"translate", "--declarations", "DIR/d.yaml", "DIR/crd.yaml"},
		code:  exitError,
		want:  []string{"excessive aliasing"},
	}, {
		name:  "declarations file with a path of 10,000 steps",
		files: map[string]string{"crd.yaml": crdNamed("a"), "d.yaml": declarations + "fields:\n  ? " + strings.Repeat(".a", 10000) + "\n  : {x-kubernetes-mutability: Immutable}\n"},
		args:  []string{"translate", "--declarations", "DIR/d.yaml", "DIR/crd.yaml"},
		code:  exitError,
		want:  []string{"d.yaml:5: version v1, .a.a.a.a … (9,992 more) … .a.a.a.a: Not found: no such node in the schema"},
	}, {
		name: "OpenAPI document whose references expand to 8 million properties",
		files: map[string]string{"bomb.json": string(hostile.MutualReferences("apps", 200)),
			"d.yaml": "apiVersion: mut2cel.io/v1alpha1\nkind: Declarations\ncrd: widgets.apps\nfields: {.spec.x: {x-kubernetes-mutability: Immutable}}\n"},
		args:     []string{"policy", "--builtin", "apps/v1/Widget", "--openapi", "DIR/bomb.json", "--declarations", "DIR/d.yaml", "--dir", "DIR/out"},
		code:     exitError,
		want:     []string{"bomb.json: schema A of apps/v1, Kind=Widget: .p", " (in schema C): with its references resolved, the schema holds more than 64 MiB, the most mut2cel reads in one run (docs/limits.md)"},
		unwanted: []string{"no CRD of this name", "Usage"},
	}, {
		name:     "OpenAPI document of 5,000 nested allOf",
		files:    map[string]string{"deep.json": string(hostile.NestedAllOf("apps", 5000, false))},
		args:     []string{"policy", "--builtin", "apps/v1/Widget", "--openapi", "DIR/deep.json", "--dir", "DIR/out"},
		code:     exitError,
		want:     []string{"--openapi: ", "deep.json:1: nested deeper than 10,000 levels, the most mut2cel reads (docs/limits.md)"},
		unwanted: []string{"Usage"},
	}, {
		name:   "UTF-16 keeps its final newline",
		files:  map[string]string{"crd.yaml": string(toUTF16(readFile(t, "testdata/crd.yaml")))},
		args:   []string{"translate", "-w", "DIR/crd.yaml"},
		writes: []string{"crd.yaml"},
		after: func(t *testing.T, dir string, _ []byte) {
			var want strings.Builder
			checkExit(t, []string{"translate", "testdata/crd.yaml"}, exitOK)
			run([]string{"translate", "testdata/crd.yaml"}, nil, &want, io.Discard)
			if got := readFile(t, filepath.Join(dir, "crd.yaml")); got != want.String() {
				t.Errorf("translate -w of the UTF-16 file wrote\n%q\nwant what it writes for the UTF-8 file\n%q", got, want.String())
			}
		},
	}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range c.files {
				mkdirAll(t, filepath.Dir(filepath.Join(dir, name)))
				writeFile(t, filepath.Join(dir, name), data)
			}
			args := make([]string, len(c.args))
			for i, a := range c.args {
				args[i] = strings.ReplaceAll(a, "DIR", dir)
			}
			var stdout bytes.Buffer
			r := runProbeTo(t, dir, args, "", c.stdout, &stdout)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", r.code, c.code, r.stderr)
			}
			for _, w := range c.want {
				if s, ok := strings.CutPrefix(w, "stdout: "); ok {
					if !strings.Contains(stdout.String(), s) {
						t.Errorf("stdout does not hold %q:\n%s", s, stdout.String())
					}
				} else if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr does not hold %q:\n%s", w, r.stderr)
				}
			}
			for _, w := range c.unwanted {
				if strings.Contains(r.stderr, w) {
					t.Errorf("stderr holds %q:\n%s", w, r.stderr)
				}
			}
			r.untouched(t, false, false, c.writes...)
			if c.after != nil {
				c.after(t, dir, stdout.Bytes())
			}
		})
	}
}

// TestProbeLongNameRoundTrip translates a CRD whose declared property
// name is about 1,000 characters long, then its output again: the second
// run changes nothing. The annotation keys went over YAML's 1024
// characters, and the output could not be read.
func TestProbeLongNameRoundTrip(t *testing.T) {
	for _, n := range []int{1000, 1017, 1021} {
		dir := t.TempDir()
		path := filepath.Join(dir, "crd.yaml")
		writeFile(t, path, crdNamed(strings.Repeat("n", n)))
		checkExit(t, []string{"translate", "-w", path}, exitOK)
		checkExit(t, []string{"translate", "--check", path}, exitOK)
	}
}

// probeResult is a finished probe run.
type probeResult struct {
	code   int
	stderr string
	dir    string
	before map[string]string // the files of dir before the run
}

func runProbe(t *testing.T, dir string, args []string, stdin string) probeResult {
	t.Helper()
	return runProbeTo(t, dir, args, stdin, nil, nil)
}

// runProbeTo runs args with run, as every command test does, and checks
// what holds for every probe: the run ends in time, without a panic, and
// its messages hold no control character.
func runProbeTo(t *testing.T, dir string, args []string, stdin string, stdout io.Writer, copy *bytes.Buffer) probeResult {
	t.Helper()
	if stdout == nil {
		stdout = io.Discard
	}
	if copy != nil {
		stdout = io.MultiWriter(stdout, copy)
	}
	r := probeResult{dir: dir, before: snapshot(t, dir)}
	var stderr strings.Builder
	done := make(chan int, 1)
	go func() { done <- run(args, strings.NewReader(stdin), stdout, &stderr) }()
	select {
	case r.code = <-done:
	case <-time.After(probeTimeout):
		t.Fatalf("run(%q) did not end in %v", args, probeTimeout)
	}
	r.stderr = stderr.String()
	if strings.Contains(r.stderr, "panic:") || strings.Contains(r.stderr, "goroutine ") {
		t.Errorf("run(%q) panicked:\n%s", args, r.stderr)
	}
	if diag.Printable(r.stderr) != r.stderr {
		t.Errorf("run(%q) printed control characters: %q", args, r.stderr)
	}
	for _, line := range strings.Split(r.stderr, "\n") {
		if len(line) > probeLine {
			t.Errorf("run(%q) printed a line of %d bytes: %.200s...", args, len(line), line)
		}
	}
	return r
}

// untouched checks that the run changed no file of its directory but
// those named, created none, and left no directory: inputs may change
// when written says so, the component directory may appear when patched
// says so.
func (r probeResult) untouched(t *testing.T, written, patched bool, may ...string) {
	t.Helper()
	after := snapshot(t, r.dir)
	for name, data := range after {
		switch before, ok := r.before[name]; {
		case slicesContain(may, name), written && ok, patched && (name == "out" || strings.HasPrefix(name, "out/")):
		case !ok:
			t.Errorf("the run created %s", name)
		case before != data:
			t.Errorf("the run changed %s", name)
		}
	}
	for name := range r.before {
		if _, ok := after[name]; !ok {
			t.Errorf("the run removed %s", name)
		}
	}
}

func slicesContain(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// snapshot maps each file and directory below dir to its contents ("/"
// for a directory); named pipes are not read.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.IsDir():
			files[rel] = "/"
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files[rel] = string(data)
		default:
			files[rel] = d.Type().String()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func mkdirAll(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

// laughs is head followed by a billion laughs under key: ten aliases of
// ten aliases, nine levels deep.
func laughs(head, key string) string {
	var b strings.Builder
	b.WriteString(head)
	fmt.Fprintf(&b, "%s:\n  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n", key)
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "  l%d: &l%d [*l%[3]d, *l%[3]d, *l%[3]d, *l%[3]d, *l%[3]d, *l%[3]d, *l%[3]d, *l%[3]d, *l%[3]d, *l%[3]d]\n", i, i, i-1)
	}
	return b.String()
}

// manyBad is a CRD with n declarations of an unknown value.
func manyBad(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "              f%d: {type: string, x-kubernetes-mutability: Sometimes}\n", i)
	}
	return strings.Replace(crdNamed("a"), "              size: {type: integer}\n", b.String(), 1)
}

// toUTF16 writes s as UTF-16, little-endian, with a byte order mark.
func toUTF16(s string) []byte {
	out := binary.LittleEndian.AppendUint16(nil, 0xfeff)
	for _, u := range utf16.Encode([]rune(s)) {
		out = binary.LittleEndian.AppendUint16(out, u)
	}
	return out
}
