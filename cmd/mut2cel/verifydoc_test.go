package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/driver/verifyrun"
	"sigs.k8s.io/yaml"
)

func TestVerifyDocument(t *testing.T) {
	for _, c := range []runCase{{
		name: "json", args: []string{"verify", "-q", "--pairs", "300", "-o", "json", "--against", brokenSet + "translated.yaml", brokenSet + "declared.yaml"},
		code: exitFinding, stdout: "verify-broken-json.golden",
		stderr: []string{"mut2cel verify: 42 disagreements in 300 pairs"},
	}, {
		name: "yaml", args: []string{"verify", "-q", "--pairs", "300", "--output", "yaml", "--against", brokenSet + "translated.yaml", brokenSet + "declared.yaml"},
		code: exitFinding, stdout: "verify-broken-yaml.golden",
		stderr: []string{"mut2cel verify: 42 disagreements in 300 pairs"},
	}, {
		name: "no disagreement", args: []string{"verify", "-q", "--pairs", "100", "-o", "yaml", "../../examples/ports.yaml"},
		stdout: "verify-ports-yaml.golden",
	}, {
		name: "unknown format", args: []string{"verify", "-o", "xml"},
		code: exitUsage, stderr: []string{`mut2cel verify: -o must be text, json or yaml, not "xml"`},
	}, {
		name: "negative counterexamples", args: []string{"verify", "--counterexamples", "-1"},
		code: exitUsage, stderr: []string{"mut2cel verify: --pairs and --jobs must be positive and --counterexamples not negative, got 10000, "},
	}, {
		name: "no counterexample", args: []string{"verify", "-q", "--pairs", "300", "--counterexamples", "0", "--against", brokenSet + "translated.yaml", brokenSet + "declared.yaml"},
		code: exitFinding, stdout: "verify-broken-no-counterexample.golden",
		stderr: []string{"mut2cel verify: 42 disagreements in 300 pairs"},
	}} {
		t.Run(c.name, func(t *testing.T) { checkRun(t, c) })
	}
}

// TestVerifyDocumentSameContent checks that -o yaml is -o json in YAML.
func TestVerifyDocumentSameContent(t *testing.T) {
	var asJSON, asYAML interface{}
	if err := json.Unmarshal([]byte(readFile(t, "testdata/verify-broken-json.golden")), &asJSON); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(readFile(t, "testdata/verify-broken-yaml.golden")), &asYAML); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(asJSON, asYAML) {
		t.Errorf("-o yaml holds other content than -o json:\n%v\n%v", asYAML, asJSON)
	}
}

// brokenCounts are the counts of each translation under testdata/broken
// in 2000 pairs of seed 1: its only cause, and per declaration the pairs
// that exercised it, the disagreements that involve it, and those that
// break it.
var brokenCounts = map[string]struct {
	disagreements int
	cause         string
	declarations  []string
}{
	"gateways.example.com": {108, "denied: rule at .spec.listeners: oldSelf.all(x, x in self)",
		[]string{".spec.listeners x-kubernetes-key-mutability AddOnly: 1920 108 0"}},
	"pools.example.com": {420, "evaluation error: rule at .spec.labels: oldSelf.all(k, self[k] == oldSelf[k])",
		[]string{".spec.labels[*] x-kubernetes-mutability Immutable: 860 420 0"}},
	"widgets.example.com": {298, "missed: presence of x-kubernetes-mutability: Immutable at .spec.class",
		[]string{".spec.class x-kubernetes-mutability Immutable: 1882 298 298"}},
	"buckets.example.com": {310, "missed: value of x-kubernetes-mutability: Immutable at .spec.tags",
		[]string{".spec.tags x-kubernetes-mutability Immutable: 1915 310 310"}},
}

// TestVerifyDocumentBroken verifies every broken translation under
// testdata/broken in one run with -o json: each must be caught, and its
// causes and declarations counted exactly.
func TestVerifyDocumentBroken(t *testing.T) {
	dirs, err := filepath.Glob("../../testdata/broken/*")
	if err != nil || len(dirs) != len(brokenCounts) {
		t.Fatalf("broken fixtures: %v, found %d, want %d", err, len(dirs), len(brokenCounts))
	}
	var translated []string
	args := []string{"verify", "-q", "--pairs", "2000", "-o", "json", "--against", filepath.Join(t.TempDir(), "translated.yaml")}
	for _, dir := range dirs {
		translated = append(translated, readFile(t, filepath.Join(dir, "translated.yaml")))
		args = append(args, filepath.Join(dir, "declared.yaml"))
	}
	if err := os.WriteFile(args[7], []byte(strings.Join(translated, "\n---\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run(args, strings.NewReader(""), &stdout, &stderr); code != exitFinding {
		t.Fatalf("run(%q) = %d, want %d; stderr:\n%s", args, code, exitFinding, stderr.String())
	}
	var doc verifyrun.Document
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("-o json: %v\n%s", err, stdout.String())
	}
	total := 0
	for _, crd := range doc.CRDs {
		want, ok := brokenCounts[crd.CRD]
		if !ok || len(crd.Versions) != 1 {
			t.Errorf("%s: %d versions; want one, of a broken translation", crd.CRD, len(crd.Versions))
			continue
		}
		v := crd.Versions[0]
		total += v.Disagreements
		if v.Disagreements != want.disagreements || len(v.Causes) != 1 || v.Causes[0].Key != want.cause ||
			v.Causes[0].Disagreements != v.Disagreements || v.Causes[0].First != v.First || v.Causes[0].Counterexample == nil {
			t.Errorf("%s: %d disagreements, causes %+v; want %d of one cause %q, with its counterexample", crd.CRD, v.Disagreements, v.Causes, want.disagreements, want.cause)
		}
		var decls []string
		for _, d := range v.Declarations {
			decls = append(decls, fmt.Sprintf("%s %s %s: %d %d %d", d.Path, d.Extension, d.Value, d.Pairs, d.Disagreements, d.Violated))
		}
		if !reflect.DeepEqual(decls, want.declarations) {
			t.Errorf("%s: declarations %q, want %q", crd.CRD, decls, want.declarations)
		}
	}
	if len(doc.CRDs) != len(dirs) || doc.Pairs != 2000*len(dirs) || doc.Disagreements != total {
		t.Errorf("document of %d CRDs, %d pairs, %d disagreements; want %d, %d, %d", len(doc.CRDs), doc.Pairs, doc.Disagreements, len(dirs), 2000*len(dirs), total)
	}
}
