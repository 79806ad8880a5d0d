// Command mut2cel compiles the x-kubernetes-mutability declarations of CRD
// schemas into x-kubernetes-validations CEL rules.
//
// main only binds flags, prints and maps outcomes to exit codes; each
// command's run is its driver's, under driver/ (internal/layers holds the
// command to the drivers and internal/diag).
package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mut2cel/mut2cel/driver/inputs"
)

// Exit codes, one policy for every command, so that a CI job can tell a
// finding from a run that could not be done (as diff and cmp do):
//
//   - exitOK: nothing to report.
//   - exitFinding: the check found something: translate --check would
//     change a file, verify found a disagreement, cost found a CRD over a
//     static limit, audit found a documented guarantee the published
//     rules do not enforce. Only a finding exits 1.
//   - exitError: the run could not be done: an input that cannot be read,
//     holds no manifest, is not YAML or JSON, holds a document that is not
//     a manifest (not a mapping), or cannot be translated as given (a bad declaration, a refusal, rules over the cost limits);
//     inputs that hold no CRD, or no declaration where the command
//     compiles or checks them; inputs past a limit of internal/limits; an
//     output that cannot be written; a cluster that cannot be read;
//     verify --server's apiserver failing.
//   - exitUsage: a bad invocation; like exitError, but the usage is printed.
const (
	exitOK      = 0
	exitFinding = 1
	exitError   = 2
	exitUsage   = exitError
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// env is the outside world a command sees.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// translate is translate.Translate; tests of the command's plumbing
	// give a stand-in.
	translate translator
	// terminal says whether stderr is a terminal, where someone waits:
	// only there is progress reported.
	terminal bool
	// progressInterval is the time between progress lines.
	progressInterval time.Duration
}

// translator translates one CRD document, as translate.Translate does.
type translator = inputs.Translator

// run runs the command line args (without the program name).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runWith(&env{stdin: stdin, stdout: stdout, stderr: stderr, translate: inputs.DefaultTranslator,
		terminal: isTerminal(stderr), progressInterval: time.Second}, args)
}

// runWith runs the command line args in e. Standard output is checked
// once, at the end: a run whose output could not all be written (a full
// disk, /dev/full, a closed descriptor) could not be done, whatever the
// command found. Standard error shows control characters escaped
// (printableWriter).
func runWith(e *env, args []string) int {
	out := &outputWriter{w: e.stdout}
	e.stdout = out
	e.stderr = printableWriter{e.stderr}
	code := dispatch(e, args)
	if out.err != nil {
		prefix := "mut2cel"
		if len(args) > 0 && findCommand(args[0]) != nil {
			prefix += " " + args[0]
		}
		fmt.Fprintf(e.stderr, "%s: cannot write to standard output: %v\n", prefix, out.err)
		return exitError
	}
	return code
}

// outputWriter is standard output as a command sees it. It remembers the
// first write that fails and drops everything after it, reporting
// success to the command, so that a command writes its output as it goes
// without checking each call; runWith checks once, for every command.
type outputWriter struct {
	w   io.Writer
	err error // of the first write that failed
}

func (o *outputWriter) Write(p []byte) (int, error) {
	if o.err == nil {
		n, err := o.w.Write(p)
		if err == nil && n < len(p) {
			err = io.ErrShortWrite
		}
		o.err = err
	}
	return len(p), nil
}

// dispatch runs the command args name.
func dispatch(e *env, args []string) int {
	if len(args) == 0 {
		printMainUsage(e.stderr)
		return exitUsage
	}
	switch name := args[0]; name {
	case "-h", "--help":
		return runHelp(helpCommand, e, args[1:])
	case "--version":
		return runVersion(versionCommand, e, args[1:])
	default:
		if c := findCommand(name); c != nil {
			return c.run(c, e, args[1:])
		}
		e.usageError(nil, "unknown command %q%s", name, commandHint(name))
		return exitUsage
	}
}
