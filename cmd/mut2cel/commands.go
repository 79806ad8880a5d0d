package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/spf13/pflag"
)

// command is one subcommand. Each has its own flag set, built by flags, so
// that its help can list the flags without running it.
type command struct {
	name, args, summary string
	help                string // the text between the usage line and the exit status
	finding             string // what exits 1 (exitFinding); empty for commands without exit status help
	flags               func() *pflag.FlagSet
	run                 func(c *command, e *env, args []string) int
}

// commands lists the subcommands in the order help shows them. It is
// filled in init because help refers to it.
var commands []*command

func init() {
	commands = []*command{translateCommand, patchCommand, policyCommand, costCommand, verifyCommand, inferCommand, auditCommand, completionCommand, versionCommand, helpCommand}
}

// noArgs parses the flags of a command that takes no arguments;
// done and code are those of parseFlags.
func (c *command) noArgs(e *env, args []string) (code int, done bool) {
	fs := c.flags()
	if code, done := c.parseFlags(e, fs, args); done {
		return code, true
	}
	if fs.NArg() > 0 {
		e.usageError(c, "unexpected arguments %q", fs.Args())
		return exitUsage, true
	}
	return exitOK, false
}

func findCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// commandHint suggests the command a misspelt name stands for, as
// "; did you mean ...?", or nothing.
func commandHint(name string) string {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	if best, ok := diag.Closest(name, names); ok {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	return ""
}

func printMainUsage(w io.Writer) {
	fmt.Fprintf(w, `Usage: mut2cel <command> [flags] [arguments]

mut2cel compiles mutability declarations of CustomResourceDefinition fields
into x-kubernetes-validations CEL rules that the kube-apiserver enforces.
A declaration is one of:
  on a field or on items:  x-kubernetes-mutability: Immutable | AddOnly | RemoveOnly
  on a list or map:        x-kubernetes-key-mutability: Immutable | AddOnly | RemoveOnly
  on either, any of:       x-kubernetes-update: [NoSet, NoUnset, NoModify, NoAddItem, NoRemoveItem]
  on an object, unions:    x-kubernetes-unions: [{discriminator: d, fields-to-discriminateBy: {a: A, b: B}, exactlyOne: true}]
  beside any of them:      x-mut2cel-formats: CompareAsValues (date-time, duration and byte strings
                           compared as the apiserver's CEL reads them; --compare-formats-as-values)
written in a schema, in the mut2cel.io/declarations annotation, in a
declarations file (--declarations) or as Go markers (--markers: +immutable,
+k8s:immutable, +k8s:update=..., +k8s:unionMember, +union, ...).
docs/semantics.md gives their meaning.

Commands:
`)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s  %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun \"mut2cel help <command>\" for details, \"mut2cel --version\" for the version.\n")
}

func (c *command) printUsage(w io.Writer) {
	fmt.Fprintf(w, "%s\n\n%s", c.usageLine(), c.help)
	if c.finding != "" {
		fmt.Fprintf(w, "\n%s", exitHelp(c.finding))
	}
	if fs := c.flags(); fs.HasFlags() {
		fmt.Fprintf(w, "\nFlags:\n%s", fs.FlagUsages())
	}
}

// parseFlags parses a command's flags. When it returns done, the command
// ends with the exit code it returns: help was asked for (0) or the flags
// are wrong (2).
func (c *command) parseFlags(e *env, fs *pflag.FlagSet, args []string) (code int, done bool) {
	fs.SetOutput(io.Discard) // messages are printed here, once
	fs.Usage = func() {}
	switch err := fs.Parse(args); {
	case err == pflag.ErrHelp:
		c.printUsage(e.stdout)
		return exitOK, true
	case err != nil:
		e.usageError(c, "%v", err)
		return exitUsage, true
	}
	if err := checkKubeVersionEnv(fs); err != nil {
		e.usageError(c, "%v", err)
		return exitUsage, true
	}
	return exitOK, false
}

// usageError reports a bad invocation with a short usage of the command
// (or of mut2cel when c is nil) on stderr.
func (e *env) usageError(c *command, format string, args ...interface{}) {
	prefix := "mut2cel"
	if c != nil {
		prefix += " " + c.name
	}
	fmt.Fprintf(e.stderr, "%s: %s\n", prefix, strings.TrimSpace(fmt.Sprintf(format, args...)))
	if c == nil {
		fmt.Fprintf(e.stderr, "Usage: mut2cel <command> [flags] [arguments]\nRun \"mut2cel help\" for the commands.\n")
		return
	}
	fmt.Fprintf(e.stderr, "%s\n", c.usageLine())
	if fs := c.flags(); fs.HasFlags() {
		fmt.Fprintf(e.stderr, "Flags:\n%s", fs.FlagUsages())
	}
	fmt.Fprintf(e.stderr, "Run \"mut2cel help %s\" for details.\n", c.name)
}

func noFlags(name string) func() *pflag.FlagSet {
	return func() *pflag.FlagSet { return pflag.NewFlagSet(name, pflag.ContinueOnError) }
}

func (c *command) usageLine() string {
	return strings.TrimSpace("Usage: mut2cel " + c.name + " " + c.args)
}

// exitHelp states the exit codes of main.go in a command's help; finding
// says what exits 1 for that command.
func exitHelp(finding string) string {
	return fmt.Sprintf(`Exit status, as for every mut2cel command:
  %d  nothing to report
  %d  %s
  %d  the run could not be done: a bad invocation; an input that cannot be
     read, holds no manifest, is not YAML or JSON, holds a document that
     is not a manifest (a list or a string where a mapping should be), or
     cannot be translated as given (a refused translation is a problem of
     the input); inputs that hold no CRD, or no declaration (but for cost
     --all); inputs past a limit of docs/limits.md (64 MiB, 2,000,000
     values, 1,000 declarations a CRD); a cluster that cannot be read, or
     serves none of the CRDs asked for; an output that cannot be written
`, exitOK, exitFinding, finding, exitError)
}
