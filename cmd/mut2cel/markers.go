package main

import (
	"github.com/spf13/pflag"
)

// markersFlag adds --markers, the Go packages whose markers declare for
// the CRDs controller-gen generated from them.
func markersFlag(fs *pflag.FlagSet, p *[]string) {
	fs.StringArrayVar(p, "markers", nil, "Go packages (go list patterns, as ./api/...) whose mutability markers are added to the CRDs controller-gen generated from them; controller-gen's own rules for +k8s:immutable, ExactlyOneOf and AtMostOneOf are replaced (docs/markers.md); repeatable")
	fs.SetAnnotation("markers", completeAnnotation, []string{completeFree})
}
