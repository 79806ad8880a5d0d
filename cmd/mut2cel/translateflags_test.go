package main

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/mut2cel/mut2cel/testkit/golden"
)

// translating are the commands that translate, and the shared flags each
// refuses.
var translating = []struct {
	command *command
	refuses []string
}{
	{translateCommand, nil},
	{patchCommand, []string{"markers"}},
	{policyCommand, boundFlags},
	{costCommand, nil},
	{verifyCommand, nil},
}

// TestTranslateInputFlags checks that every command that translates
// registers the same shared flags, spelled, typed, defaulted and
// described alike, and that a flag a command refuses says so in its
// help and is refused when given, never ignored.
func TestTranslateInputFlags(t *testing.T) {
	t.Setenv(kubeVersionEnv, "")
	var want translateInputFlags
	reference := pflag.NewFlagSet("reference", pflag.ContinueOnError)
	want.register(reference, "reference", nil)
	var names []string
	reference.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	if strings.Join(names, " ") != strings.Join(sharedTranslateFlags, " ") {
		t.Errorf("registered flags %q, sharedTranslateFlags %q: keep them alike", names, sharedTranslateFlags)
	}
	for _, c := range translating {
		fs := c.command.flags()
		for _, name := range sharedTranslateFlags {
			ref, got := reference.Lookup(name), fs.Lookup(name)
			if got == nil {
				t.Errorf("%s: no --%s", c.command.name, name)
				continue
			}
			refused := contains(c.refuses, name)
			if got.Value.Type() != ref.Value.Type() || got.DefValue != ref.DefValue || got.Shorthand != ref.Shorthand {
				t.Errorf("%s --%s: %s, default %q, -%s; want %s, default %q, -%s", c.command.name, name,
					got.Value.Type(), got.DefValue, got.Shorthand, ref.Value.Type(), ref.DefValue, ref.Shorthand)
			}
			switch {
			case refused && !strings.HasPrefix(got.Usage, "not taken by "+c.command.name+": "):
				t.Errorf("%s --%s is refused, but its help does not say why: %q", c.command.name, name, got.Usage)
			case !refused && got.Usage != ref.Usage:
				t.Errorf("%s --%s: help %q, want %q", c.command.name, name, got.Usage, ref.Usage)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestTranslateInputFlagsRefused checks that a flag a command cannot use
// is a usage error that says why, not a flag silently ignored.
func TestTranslateInputFlagsRefused(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []runCase{{
		name: "patch --markers", args: []string{"patch", "--dir", filepath.Join(dir, "out"), "--markers", "./api/...", "../../examples/ports.yaml"},
		code: exitUsage, stderr: []string{"mut2cel patch: --markers is not taken by patch: markers declare for CRDs generated from Go packages you own", "Usage: mut2cel patch"},
	}, {
		name: "verify --against with bounds", args: []string{"verify", "--against", "../../examples/translated/ports.yaml", "--max-items", "10", "--no-bounds", "../../examples/ports.yaml"},
		code: exitUsage, stderr: []string{"mut2cel verify: --max-items and --no-bounds shape the translation verify makes of PATH, and with --against it makes none: " +
			"the rules under test are those of ../../examples/translated/ports.yaml", "Usage: mut2cel verify"},
	}, {
		name: "cost, negative bound", args: []string{"cost", "--max-items", "-1", "../../examples/ports.yaml"},
		code: exitUsage, stderr: []string{"mut2cel cost: --max-length, --max-items and --max-properties must not be negative", "Usage: mut2cel cost"},
	}, {
		name: "patch, bad floor", args: []string{"patch", "--dir", filepath.Join(dir, "out"), "--bound-floor", "maxWidth=5", "../../examples/ports.yaml"},
		code: exitUsage, stderr: []string{"mut2cel patch: --bound-floor: \"maxWidth=5\": the keyword must be maxLength, maxItems or maxProperties", "Usage: mut2cel patch"},
	}, {
		name: "verify, unknown floor path", args: []string{"verify", "-q", "--pairs", "10", "--bound-floor", ".spec.nosuch:maxItems=10", "../../examples/ports.yaml"},
		code: exitError, moreStderr: true, stderr: []string{"--bound-floor .spec.nosuch:maxItems=10: no CRD given has a schema node at .spec.nosuch"},
	}} {
		t.Run(c.name, func(t *testing.T) { checkRun(t, c) })
	}
}

// TestCommandHelp keeps the help of each command that translates, and of
// infer and audit, in a golden file, so that a change to the shared flags
// shows in review.
func TestCommandHelp(t *testing.T) {
	t.Setenv(kubeVersionEnv, "")
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4)) // the default of verify --jobs
	commands := []*command{inferCommand, auditCommand}
	for _, c := range translating {
		commands = append(commands, c.command)
	}
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			c.printUsage(&b)
			golden.Check(t, filepath.Join("testdata", "help-"+c.name+".golden"), []byte(b.String()))
		})
	}
}
