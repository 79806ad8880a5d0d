package main

import (
	"fmt"
	"runtime/debug"
)

var helpCommand = &command{
	name: "help", args: "[command]", summary: "show help for mut2cel or one command",
	help:  "Prints the usage of mut2cel, or of the named command.\n",
	flags: noFlags("help"),
}

// helpCommand.run is set in init: runHelp reads commands, which holds
// helpCommand.
func init() { helpCommand.run = runHelp }

func runHelp(c *command, e *env, args []string) int {
	fs := c.flags()
	if code, done := c.parseFlags(e, fs, args); done {
		return code
	}
	switch args = fs.Args(); {
	case len(args) == 0:
		printMainUsage(e.stdout)
	case len(args) == 1 && findCommand(args[0]) != nil:
		findCommand(args[0]).printUsage(e.stdout)
	default:
		e.usageError(nil, "help takes one command name, got %q", args)
		return exitUsage
	}
	return exitOK
}

// version is set at link time (-ldflags "-X main.version=v1.2.3"); without
// it, the module version Go recorded in the binary is used.
var version = ""

var versionCommand = &command{
	name: "version", args: "", summary: "print the version of mut2cel",
	help:  "Prints the version of mut2cel.\n",
	flags: noFlags("version"),
	run:   runVersion,
}

func runVersion(c *command, e *env, args []string) int {
	if code, done := c.noArgs(e, args); done {
		return code
	}
	fmt.Fprintf(e.stdout, "mut2cel %s\n", versionString())
	return exitOK
}

func versionString() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}
