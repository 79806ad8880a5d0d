package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func completionScript(t *testing.T, shell string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"completion", shell}, nil, &stdout, &stderr); code != exitOK {
		t.Fatalf("run(completion %s) = %d, want 0; stderr:\n%s", shell, code, stderr.String())
	}
	return stdout.String()
}

// TestCompletionNamesEverything checks that each script names every
// command and every flag of its flag set, in the shell's own syntax.
func TestCompletionNamesEverything(t *testing.T) {
	command := map[string]func(string) string{
		"bash": func(n string) string { return "\t" + n + ")\n" },
		"zsh":  func(n string) string { return "'" + n + ":" },
		"fish": func(n string) string { return " -a " + n + " " },
	}
	long := map[string]func(string) string{
		"bash": func(n string) string { return "--" + n },
		"zsh":  func(n string) string { return "--" + n },
		"fish": func(n string) string { return " -l " + n },
	}
	short := map[string]func(string) string{
		"bash": func(n string) string { return "-" + n },
		"zsh":  func(n string) string { return ")-" + n },
		"fish": func(n string) string { return " -s " + n },
	}
	for _, shell := range shellNames {
		script := completionScript(t, shell)
		for _, c := range commands {
			if !strings.Contains(script, command[shell](c.name)) {
				t.Errorf("completion %s: no command %s", shell, c.name)
			}
			c.flags().VisitAll(func(f *pflag.Flag) {
				if f.Annotations[refusedAnnotation] != nil {
					return // not offered: patch refuses --markers
				}
				if !strings.Contains(script, long[shell](f.Name)) {
					t.Errorf("completion %s: no flag --%s of %s", shell, f.Name, c.name)
				}
				if f.Shorthand != "" && !strings.Contains(script, short[shell](f.Shorthand)) {
					t.Errorf("completion %s: no flag -%s of %s", shell, f.Shorthand, c.name)
				}
			})
		}
		for _, v := range kubeVersions() {
			if !strings.Contains(script, v) {
				t.Errorf("completion %s: no --kube-version value %s", shell, v)
			}
		}
	}
}

func TestCompletionUsage(t *testing.T) {
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}, {"completion", "bash", "zsh"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, nil, &stdout, &stderr); code != exitUsage || stdout.Len() > 0 {
			t.Errorf("run(%q) = %d with stdout %q, want %d and none", args, code, stdout.String(), exitUsage)
		}
	}
}

// TestBashCompletion sources the script in bash and completes a few
// command lines with it.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash:", err)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "mut2cel.bash")
	if err := os.WriteFile(script, []byte(completionScript(t, "bash")), 0o644); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "crd.yaml"), "")
	mkdir(t, filepath.Join(dir, "out"))
	tests := []struct {
		line []string // the words, the last one being completed
		want string
	}{
		{[]string{"mut2cel", "tr"}, "translate"},
		{[]string{"mut2cel", "patch", "--d"}, "--declarations --dir"},
		{[]string{"mut2cel", "patch", "--di"}, "--dir"},
		// Every command that translates takes the same inputs; patch
		// refuses --markers, so it is not offered there.
		{[]string{"mut2cel", "cost", "--d"}, "--declarations"},
		{[]string{"mut2cel", "cost", "--a"}, "--all --all-versions"},
		{[]string{"mut2cel", "cost", "--declarations", "cr"}, "crd.yaml"},
		{[]string{"mut2cel", "verify", "--ma"}, "--markers --max-items --max-length --max-properties"},
		{[]string{"mut2cel", "patch", "--ma"}, "--max-items --max-length --max-properties"},
		{[]string{"mut2cel", "translate", "--kube-version", "1.3"}, "1.30 1.31 1.32 1.33 1.34 1.35 1.36 1.37"},
		{[]string{"mut2cel", "cost", "--kube-version", "=", "1.29"}, "1.29"},
		{[]string{"mut2cel", "verify", "cr"}, "crd.yaml"},
		// -o takes a format, not a file.
		{[]string{"mut2cel", "verify", "-o", "cr"}, ""},
		{[]string{"mut2cel", "cost", "--output", "cr"}, ""},
		{[]string{"mut2cel", "patch", "--dir", "o"}, "out"},
		{[]string{"mut2cel", "translate", "--max-items", ""}, ""},
		{[]string{"mut2cel", "help", "ver"}, "verify version"},
		{[]string{"mut2cel", "completion", "f"}, "fish"},
	}
	for _, tt := range tests {
		prog := `source "$1"; complete -p mut2cel >/dev/null || exit 1
COMP_WORDS=("${@:2}"); COMP_CWORD=$(($# - 2)); _mut2cel; echo "${COMPREPLY[*]}"`
		cmd := exec.Command(bash, append([]string{"--norc", "-c", prog, "bash", script}, tt.line...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if got := strings.TrimSpace(string(out)); err != nil || got != tt.want {
			t.Errorf("bash completion of %q = %q, %v; want %q", tt.line, got, err, tt.want)
		}
	}
}
