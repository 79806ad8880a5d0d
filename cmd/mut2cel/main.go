// Command mut2cel compiles the x-kubernetes-mutability declarations of CRD
// schemas into x-kubernetes-validations CEL rules.
//
// main only parses flags, loops over inputs and maps results to exit
// codes; the packages under internal/ and translate/ do the work.
package main

import (
	"io"
	"os"
)

// Exit codes. Bad invocations (exitUsage) print the usage; failed runs
// (exitFailure) print what failed and not the usage.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// env is the outside world a command sees.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// run runs the command line args (without the program name).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin, stdout, stderr}
	if len(args) == 0 {
		printMainUsage(stderr)
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
		e.usageError(nil, "unknown command %q", name)
		return exitUsage
	}
}
