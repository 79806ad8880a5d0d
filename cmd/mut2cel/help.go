package main

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
