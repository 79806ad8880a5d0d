package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExitCodes runs every command on each kind of input it cannot use,
// and on its finding, and pins the exit code of the policy in main.go:
// 1 only for a finding, 2 for any run that could not be done.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	noManifests := filepath.Join(dir, "docs")
	badYAML := filepath.Join(dir, "bad.yaml")
	mkdir(t, noManifests)
	writeFile(t, filepath.Join(noManifests, "README.md"), "# not a manifest\n")
	writeFile(t, badYAML, "kind: CustomResourceDefinition\nspec: [1,\n")
	passwd, list, crdAndText := filepath.Join(dir, "passwd"), filepath.Join(dir, "list.yaml"), filepath.Join(dir, "crd-and-text.yaml")
	writeFile(t, passwd, "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n")
	writeFile(t, list, "- apiVersion: v1\n  kind: ConfigMap\n")
	crd, err := os.ReadFile("testdata/crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, crdAndText, string(crd)+"---\njust text\n")
	inputs := []struct{ name, path string }{
		{"missing file", filepath.Join(dir, "missing.yaml")},
		{"no manifests", noManifests},
		{"empty standard input", "-"},
		{"no CRD", "testdata/configmap.yaml"},
		{"no declarations", "testdata/cost/handwritten.yaml"},
		{"bad YAML", badYAML},
		{"not YAML manifests", passwd},
		{"a list", list},
		{"a CRD and a string", crdAndText},
		{"declaration that cannot be translated", "testdata/bad-crd.yaml"},
		{"refused for its cost", "testdata/cost/needs-bounds.yaml"},
	}
	commands := []struct {
		name string
		args []string
	}{
		{"translate", []string{"translate", "--no-bounds"}},
		{"translate --check", []string{"translate", "--no-bounds", "--check"}},
		{"translate -w", []string{"translate", "--no-bounds", "-w"}},
		{"patch", []string{"patch", "--no-bounds", "--dir", filepath.Join(dir, "out")}},
		{"cost", []string{"cost", "--no-bounds"}},
		{"verify", []string{"verify", "--no-bounds", "-q", "--pairs", "10"}},
	}
	for _, c := range commands {
		for _, in := range inputs {
			args := append(c.args[:len(c.args):len(c.args)], in.path)
			t.Run(c.name+"/"+in.name, func(t *testing.T) { checkExit(t, args, exitError) })
		}
	}
	// infer and audit read any CRD, declaring or not, and leave the
	// declarations translate refuses out of what they propose: the
	// inputs without a CRD, or that are no manifests, are theirs.
	for _, args := range [][]string{{"infer"}, {"audit", "-q", "--pairs", "10"}} {
		for _, in := range inputs[:9] {
			if in.name == "no declarations" {
				continue
			}
			args := append(args[:len(args):len(args)], in.path)
			t.Run(args[0]+"/"+in.name, func(t *testing.T) { checkExit(t, args, exitError) })
		}
	}

	for _, c := range []struct {
		name string
		args []string
		code int
	}{
		{"translate, nothing to change", []string{"translate", "--check", "../../examples/translated/gatewayclass.yaml"}, exitOK},
		{"translate, a file would change", []string{"translate", "--check", "testdata/crd.yaml"}, exitFinding},
		{"patch", []string{"patch", "--dir", filepath.Join(dir, "ok"), "testdata/crd.yaml"}, exitOK},
		{"cost, within the limits", []string{"cost", "testdata/crd.yaml"}, exitOK},
		{"cost, over a static limit", []string{"cost", "--all", "testdata/cost/handwritten.yaml"}, exitFinding},
		{"verify, no disagreement", []string{"verify", "-q", "--pairs", "100", "../../examples/ports.yaml"}, exitOK},
		{"verify, a disagreement", []string{"verify", "-q", "--pairs", "300", "--against", brokenSet + "translated.yaml", brokenSet + "declared.yaml"}, exitFinding},
		{"verify, no namesake in --against", []string{"verify", "-q", "--against", "../../examples/ports.yaml", brokenSet + "declared.yaml"}, exitError},
		{"infer", []string{"infer", "testdata/cost/handwritten.yaml"}, exitOK},
		{"infer, proposals written", []string{"infer", "--out", filepath.Join(dir, "proposals.yaml"), "../../testdata/infer/widgets.yaml"}, exitOK},
		{"audit, nothing documented", []string{"audit", "-q", "testdata/cost/handwritten.yaml"}, exitOK},
		{"audit, a guarantee not enforced", []string{"audit", "-q", "--pairs", "200", "../../testdata/infer/widgets.yaml"}, exitFinding},
		{"audit, an unreachable cluster", []string{"audit", "-q", "--kubeconfig", filepath.Join(dir, "missing-kubeconfig")}, exitError},
		{"usage", []string{"cost", "-o", "xml"}, exitUsage},
	} {
		t.Run(c.name, func(t *testing.T) { checkExit(t, c.args, c.code) })
	}
}

func checkExit(t *testing.T, args []string, want int) {
	t.Helper()
	var stderr strings.Builder
	if code := run(args, strings.NewReader(""), io.Discard, &stderr); code != want {
		t.Errorf("run(%q) = %d, want %d; stderr:\n%s", args, code, want, stderr.String())
	}
}

// TestHelpExitStatus checks that the help of every command that reads
// manifests states the exit codes, and what exits 1 for it.
func TestHelpExitStatus(t *testing.T) {
	for _, c := range []*command{translateCommand, patchCommand, costCommand, verifyCommand, inferCommand, auditCommand} {
		var stdout strings.Builder
		if code := run([]string{"help", c.name}, nil, &stdout, io.Discard); code != exitOK {
			t.Fatalf("help %s = %d", c.name, code)
		}
		if want := exitHelp(c.finding); c.finding == "" || !strings.Contains(stdout.String(), want) {
			t.Errorf("help %s does not end its text with\n%s", c.name, want)
		}
	}
}

func mkdir(t *testing.T, path string) {
	t.Helper()
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
