package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/mut2cel/mut2cel/translate"
)

// TestProgress checks that every command that reads many inputs reports
// its progress over them on a terminal, and only there, at most once per
// interval; the note on the ConfigMap, which is not a CRD, is printed
// either way.
func TestProgress(t *testing.T) {
	inputs := []string{"../../examples/ports.yaml", "../../examples/gatewayclass.yaml", "testdata/configmap.yaml"}
	const note = "testdata/configmap.yaml: 1 document is not a CustomResourceDefinition (kind: ConfigMap)\n"
	dir := t.TempDir()
	for _, c := range []struct {
		command string
		args    []string
		code    int
		last    string // the line the command ends with on success
	}{
		{"translate", []string{"translate"}, exitOK, ""},
		{"patch", []string{"patch", "--dir", dir}, exitOK, "mut2cel patch: wrote " + dir + "/kustomization.yaml, translating 2 CRDs\n"},
		{"cost", []string{"cost"}, exitOK, ""},
	} {
		args := append(c.args, inputs...)
		for _, terminal := range []bool{true, false} {
			want := note + c.last
			if terminal {
				want = "mut2cel " + c.command + ": 1/3 inputs\nmut2cel " + c.command + ": 2/3 inputs\n" + want
			}
			if got := runProgress(t, args, c.code, terminal, 0); got != want {
				t.Errorf("run(%q) with a terminal %v: stderr = %q, want %q", args, terminal, got, want)
			}
		}
		if got := runProgress(t, args, c.code, true, time.Hour); got != note+c.last {
			t.Errorf("run(%q) shorter than the interval: stderr = %q, want only the note %q", args, got, note+c.last)
		}
	}
}

// TestVerifyProgress checks that verify reports the pairs judged on a
// terminal, unless -q, and never elsewhere.
func TestVerifyProgress(t *testing.T) {
	args := []string{"verify", "--pairs", "1000", "../../examples/ports.yaml"}
	got := runProgress(t, args, exitOK, true, 0)
	for _, want := range []string{"mut2cel verify: gateways.networking.example.com v1: 500/1000 pairs, ", " pairs/s, 0 disagreements\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("run(%q) on a terminal: stderr = %q, want it to contain %q", args, got, want)
		}
	}
	if strings.Contains(got, "1000/1000") {
		t.Errorf("run(%q) on a terminal: stderr = %q, want the last pair not reported", args, got)
	}
	quiet := append([]string{"verify", "-q"}, args[1:]...)
	for _, c := range []struct {
		args     []string
		terminal bool
		interval time.Duration
	}{{args, false, 0}, {quiet, true, 0}, {args, true, time.Hour}} {
		if got := runProgress(t, c.args, exitOK, c.terminal, c.interval); got != "" {
			t.Errorf("run(%q) with a terminal %v, every %v: stderr = %q, want nothing", c.args, c.terminal, c.interval, got)
		}
	}
}

// runProgress runs args with stderr a terminal or not and progress lines
// interval apart, and returns stderr.
func runProgress(t *testing.T, args []string, code int, terminal bool, interval time.Duration) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, translate: translate.Translate,
		terminal: terminal, progressInterval: interval}
	if got := runWith(e, args); got != code {
		t.Fatalf("run(%q) = %d, want %d; stderr:\n%s", args, got, code, stderr.String())
	}
	return stderr.String()
}

// TestInferAuditProgress checks that infer and audit report, on a
// terminal, the inputs read and then the CRDs done (the last of each
// not), audit not with -q, and neither anywhere else.
func TestInferAuditProgress(t *testing.T) {
	inputs := []string{"../../examples/ports.yaml", "../../examples/gatewayclass.yaml", "testdata/configmap.yaml"}
	for _, c := range []struct {
		args []string
		code int
	}{
		{append([]string{"infer"}, inputs...), exitOK},
		{append([]string{"audit", "--pairs", "50"}, inputs...), exitOK},
	} {
		got := runProgress(t, c.args, c.code, true, 0)
		for _, want := range []string{"mut2cel " + c.args[0] + ": 2/3 inputs\n", "mut2cel " + c.args[0] + ": 1/2 CRDs\n"} {
			if !strings.Contains(got, want) {
				t.Errorf("run(%q) on a terminal: stderr = %q, want it to contain %q", c.args, got, want)
			}
		}
		if strings.Contains(got, "2/2 CRDs") {
			t.Errorf("run(%q) on a terminal: stderr = %q, want the last CRD not reported", c.args, got)
		}
		if got := runProgress(t, c.args, c.code, false, 0); strings.Contains(got, "CRDs\n") || strings.Contains(got, "inputs\n") {
			t.Errorf("run(%q) without a terminal: stderr = %q, want no progress", c.args, got)
		}
	}
	quiet := []string{"audit", "-q", "--pairs", "50", inputs[0], inputs[1]}
	if got := runProgress(t, quiet, exitOK, true, 0); strings.Contains(got, "CRDs\n") || strings.Contains(got, "inputs\n") {
		t.Errorf("run(%q) on a terminal: stderr = %q, want no progress", quiet, got)
	}
}
