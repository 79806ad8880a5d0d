package main

import (
	"github.com/spf13/pflag"
)

// declarationsFlag adds --declarations, the declarations files for CRDs
// the user does not own, to a command that reads CRDs.
func declarationsFlag(fs *pflag.FlagSet, p *[]string) {
	fs.StringArrayVar(p, "declarations", nil, "declarations file (kind Declarations) whose declarations are added to the CRDs it names, for CRDs you do not own; repeatable")
	fs.SetAnnotation("declarations", completeAnnotation, []string{completeFiles})
}
