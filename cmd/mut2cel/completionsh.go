package main

import (
	"io"
	"strings"
)

// The three writers below emit the same model: the command names, then
// per command its flags, what each flag's value completes to, and what
// its arguments complete to.

// writeBashCompletion writes a function for bash's complete -F. Flag values
// are read after "--flag value" and "--flag=value" (bash splits the word
// at "=", COMP_WORDBREAKS).
func writeBashCompletion(w io.Writer, cmds []compCommand) {
	printf(w, `# bash completion for mut2cel; load it with: source <(mut2cel completion bash)
_mut2cel() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=${COMP_WORDS[1]}
	if [[ $cur == = ]]; then
		cur=
	elif [[ $prev == = ]] && ((COMP_CWORD > 2)); then
		prev=${COMP_WORDS[COMP_CWORD-2]}
	fi
	COMPREPLY=()
	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W '%s --help --version' -- "$cur"))
		return
	fi
	local flags= value= args=
	case $cmd in
`, strings.Join(commandNames(cmds), " "))
	for _, c := range cmds {
		args := c.args
		if args == completeNothing {
			args = "none"
		}
		printf(w, "\t%s)\n\t\tflags='%s'\n\t\targs=%s\n", c.name, strings.Join(c.flagNames(""), " "), args)
		printf(w, "\t\tcase $prev in\n")
		for _, kind := range []string{completeVersions, completeDirs, completeFiles, completeFree} {
			if names := c.flagNames(kind); len(names) > 0 {
				printf(w, "\t\t%s) value=%s ;;\n", strings.Join(names, "|"), kind)
			}
		}
		printf(w, "\t\tesac ;;\n")
	}
	printf(w, `	*) return ;;
	esac
	case $value in
	versions) COMPREPLY=($(compgen -W '%s' -- "$cur")); return ;;
	dirs) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;
	files) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
	free) return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$flags --help" -- "$cur"))
		return
	fi
	case $args in
	files) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
	commands) ((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W '%s' -- "$cur")) ;;
	shells) ((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W '%s' -- "$cur")) ;;
	esac
}
complete -F _mut2cel mut2cel
`, strings.Join(kubeVersions(), " "), strings.Join(commandNames(cmds), " "), strings.Join(shellNames, " "))
}

// writeZshCompletion writes a completion function for zsh's _arguments. It
// works both autoloaded from $fpath, as the file _mut2cel, and sourced.
func writeZshCompletion(w io.Writer, cmds []compCommand) {
	printf(w, "#compdef mut2cel\n# zsh completion for mut2cel; load it with: source <(mut2cel completion zsh)\n")
	printf(w, "_mut2cel() {\n\tlocal -a commands\n\tcommands=(\n")
	for _, c := range cmds {
		printf(w, "\t\t%s\n", zshQuote(c.name+":"+c.summary))
	}
	printf(w, "\t)\n\tif ((CURRENT == 2)); then\n\t\t_describe -t commands 'mut2cel command' commands\n\t\treturn\n\tfi\n")
	printf(w, "\tshift words\n\t((CURRENT--))\n\tcase $words[1] in\n")
	for _, c := range cmds {
		printf(w, "\t%s)\n\t\t_arguments -s", c.name)
		for _, spec := range zshSpecs(c, commandNames(cmds)) {
			printf(w, " \\\n\t\t\t%s", zshQuote(spec))
		}
		printf(w, " ;;\n")
	}
	printf(w, "\tesac\n}\n")
	printf(w, "if [[ $funcstack[1] == _mut2cel ]]; then\n\t_mut2cel \"$@\"\nelse\n\tcompdef _mut2cel mut2cel\nfi\n")
}

// zshSpecs gives the _arguments specs of one command: each flag under
// every name, exclusive with its other names unless it is repeatable, and
// the arguments.
func zshSpecs(c compCommand, commandNames []string) []string {
	var specs []string
	for _, f := range c.flags {
		names := []string{"--" + f.long}
		if f.short != "" {
			names = append(names, "-"+f.short)
		}
		prefix := "(" + strings.Join(names, " ") + ")"
		if f.repeatable {
			prefix = "*"
		}
		desc := strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`).Replace(f.usage)
		for _, n := range names {
			switch {
			case f.value == completeNothing:
			case strings.HasPrefix(n, "--"):
				n += "=" // the value in the next word or after "="
			default:
				n += "+" // the value in the next word or joined: -ojson
			}
			specs = append(specs, prefix+n+"["+desc+"]"+zshAction(f.value))
		}
	}
	switch c.args {
	case completeFiles:
		specs = append(specs, "*:file:_files")
	case completeCommands:
		specs = append(specs, "1:command:("+strings.Join(commandNames, " ")+")")
	case completeShells:
		specs = append(specs, "1:shell:("+strings.Join(shellNames, " ")+")")
	}
	return specs
}

func zshAction(kind string) string {
	switch kind {
	case completeVersions:
		return ":version:(" + strings.Join(kubeVersions(), " ") + ")"
	case completeDirs:
		return ":directory:_files -/"
	case completeFiles:
		return ":file:_files"
	case completeFree:
		return ":value: "
	}
	return ""
}

func zshQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// writeFishCompletion writes complete commands for fish. File names are
// offered only where a command takes PATH arguments or a flag takes a file.
func writeFishCompletion(w io.Writer, cmds []compCommand) {
	printf(w, "# fish completion for mut2cel; load it with: mut2cel completion fish | source\n")
	printf(w, "complete -c mut2cel -f\n")
	for _, c := range cmds {
		printf(w, "complete -c mut2cel -n __fish_use_subcommand -a %s -d %s\n", c.name, fishQuote(c.summary))
	}
	for _, c := range cmds {
		cond := "-n " + fishQuote("__fish_seen_subcommand_from "+c.name)
		for _, f := range c.flags {
			line := "complete -c mut2cel " + cond + " -l " + f.long
			if f.short != "" {
				line += " -s " + f.short
			}
			switch f.value {
			case completeVersions:
				line += " -x -a " + fishQuote(strings.Join(kubeVersions(), " "))
			case completeDirs:
				line += " -x -a '(__fish_complete_directories)'"
			case completeFiles:
				line += " -r -F"
			case completeFree:
				line += " -x"
			}
			printf(w, "%s -d %s\n", line, fishQuote(f.usage))
		}
		switch c.args {
		case completeFiles:
			printf(w, "complete -c mut2cel %s -F\n", cond)
		case completeCommands:
			printf(w, "complete -c mut2cel %s -a %s\n", cond, fishQuote(strings.Join(commandNames(cmds), " ")))
		case completeShells:
			printf(w, "complete -c mut2cel %s -a %s\n", cond, fishQuote(strings.Join(shellNames, " ")))
		}
	}
}

func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}
