package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/mut2cel/mut2cel/driver/inputs"
	"github.com/spf13/pflag"
)

var completionCommand = &command{
	name: "completion", args: "bash|zsh|fish",
	summary: "print a shell completion script",
	help: `Prints a script that completes mut2cel's commands, their flags, the
supported --kube-version values and file names for PATH arguments.

  bash:  source <(mut2cel completion bash)
  zsh:   source <(mut2cel completion zsh)
  fish:  mut2cel completion fish | source

Put the line in ~/.bashrc, ~/.zshrc or ~/.config/fish/config.fish to load it
in every shell, or write the script where the shell looks for completions
(for zsh, a file named _mut2cel in a directory of $fpath).
`,
	flags: noFlags("completion"),
}

// completionCommand.run is set in init: the scripts list commands, which
// holds completionCommand.
func init() { completionCommand.run = runCompletion }

// shells maps a shell's name to the writer of its script. Each script is
// generated from the commands table and the flag sets the commands parse,
// so that it cannot fall behind them.
var shells = map[string]func(io.Writer, []compCommand){
	"bash": writeBashCompletion,
	"zsh":  writeZshCompletion,
	"fish": writeFishCompletion,
}

var shellNames = []string{"bash", "zsh", "fish"}

func runCompletion(c *command, e *env, args []string) int {
	fs := c.flags()
	if code, done := c.parseFlags(e, fs, args); done {
		return code
	}
	if fs.NArg() != 1 || shells[fs.Arg(0)] == nil {
		e.usageError(c, "name one shell: bash, zsh or fish (got %q)", fs.Args())
		return exitUsage
	}
	shells[fs.Arg(0)](e.stdout, completionModel())
	return exitOK
}

// What a flag value or an argument completes to.
const (
	completeNothing  = ""         // a bool flag, or a command without arguments
	completeFiles    = "files"    // PATH arguments and flags naming a file
	completeDirs     = "dirs"     // flags naming a directory
	completeVersions = "versions" // --kube-version
	completeFree     = "free"     // a number or a word: nothing to offer
	completeCommands = "commands" // help's argument
	completeShells   = "shells"   // completion's argument
)

// completeAnnotation, a pflag annotation, says what a flag's value
// completes to where its type does not: patch --dir takes a directory,
// -o a word. A string flag without it takes a file.
const completeAnnotation = "mut2cel/complete"

type compCommand struct {
	name, summary string
	flags         []compFlag
	args          string // a complete* constant
}

type compFlag struct {
	long, short, usage string
	value              string // a complete* constant
	repeatable         bool
}

// completionModel describes every command for the script writers.
func completionModel() []compCommand {
	var cmds []compCommand
	for _, c := range commands {
		cc := compCommand{name: c.name, summary: c.summary, args: argsCompletion(c)}
		c.flags().VisitAll(func(f *pflag.Flag) {
			if f.Annotations[refusedAnnotation] != nil {
				return // giving it is an error
			}
			cc.flags = append(cc.flags, compFlag{long: f.Name, short: f.Shorthand, usage: f.Usage,
				value: valueCompletion(f), repeatable: strings.HasSuffix(f.Value.Type(), "Array")})
		})
		cmds = append(cmds, cc)
	}
	return cmds
}

func argsCompletion(c *command) string {
	switch {
	case strings.Contains(c.args, "PATH"):
		return completeFiles
	case c == helpCommand:
		return completeCommands
	case c == completionCommand:
		return completeShells
	}
	return completeNothing
}

func valueCompletion(f *pflag.Flag) string {
	if a := f.Annotations[completeAnnotation]; len(a) == 1 {
		return a[0]
	}
	if _, ok := f.Value.(*kubeVersionFlag); ok {
		return completeVersions
	}
	switch t := f.Value.Type(); {
	case f.NoOptDefVal != "": // a bool, given without a value
		return completeNothing
	case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint") || strings.HasPrefix(t, "float"):
		return completeFree
	}
	return completeFiles
}

// kubeVersions lists the values --kube-version accepts.
func kubeVersions() []string {
	var vs []string
	for v := inputs.MinKubeVersion; !inputs.MaxKubeVersion.Less(v); v.Minor++ {
		vs = append(vs, v.String())
	}
	return vs
}

func commandNames(cmds []compCommand) []string {
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.name
	}
	return names
}

// flagNames gives "--long" and "-s" for every flag of c, and the flags
// whose value completes to kind.
func (c compCommand) flagNames(kind string) []string {
	var names []string
	for _, f := range c.flags {
		if kind != "" && f.value != kind {
			continue
		}
		names = append(names, "--"+f.long)
		if f.short != "" {
			names = append(names, "-"+f.short)
		}
	}
	return names
}

func printf(w io.Writer, format string, args ...interface{}) { fmt.Fprintf(w, format, args...) }
