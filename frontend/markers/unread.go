package markers

import (
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/mut2cel/mut2cel/decl"
)

// unreadMarkers finds the validation-gen tags about updates that the
// declaration model cannot say: +k8s:item(...) picks one entry of a list
// by its key, +k8s:subfield(...) a field of a type the marker is not on.
// The collector does not see them (their names carry arguments), so the
// comments are read here, and each is an error rather than a constraint
// silently dropped.
func unreadMarkers(roots []*loader.Package) decl.Errors {
	var errs decl.Errors
	for _, pkg := range roots {
		pkg.NeedSyntax()
		for _, f := range pkg.Syntax {
			for _, g := range f.Comments {
				for _, c := range g.List {
					if !strings.HasPrefix(c.Text, "//") {
						continue
					}
					if detail := unread(strings.TrimSpace(c.Text[2:])); detail != "" {
						at := pkg.Fset.Position(c.Pos())
						errs = append(errs, &decl.Error{Source: decl.Source{File: relative(at.Filename), Line: at.Line}, Detail: detail})
					}
				}
			}
		}
	}
	return errs
}

// unread says why a marker comment that speaks of updates is not read,
// or "" for any other comment.
func unread(text string) string {
	tag, payload, _ := strings.Cut(text, "=")
	if (strings.HasPrefix(tag, "+k8s:item(") || strings.HasPrefix(tag, "+k8s:subfield(")) && mentionsUpdate(payload) {
		return tag + ": mut2cel cannot declare on one entry or on a field chosen from outside: put the marker on the field itself, or +k8s:eachVal on the list for every entry"
	}
	// The stability wrappers are read around union tags (unionwrap.go);
	// the update tags are read by controller-tools, which cannot read a
	// name with arguments.
	if (strings.HasPrefix(tag, "+k8s:alpha(") || strings.HasPrefix(tag, "+k8s:beta(")) && mentionsUpdate(payload) {
		return tag + ": mut2cel reads a stability wrapper around the union tags only, and would drop the update tag it holds: write the tag bare, as mut2cel reads it whatever its stability, or remove it"
	}
	// controller-tools takes "+k8s:immutable # why" for a marker named
	// "k8s:immutable # why", which nothing reads.
	name, comment, _ := strings.Cut(tag, "#")
	name = strings.TrimSpace(name)
	for _, n := range []string{nameImmutable, nameImmutableKeys, nameK8sImmutable} {
		if comment != "" && name == "+"+n {
			return name + ": controller-tools does not read a marker with a comment after its name: put the comment on a line of its own"
		}
	}
	return ""
}

// mentionsUpdate reports whether a tag's payload holds an update tag.
func mentionsUpdate(payload string) bool {
	for _, name := range []string{nameK8sImmutable, nameK8sUpdate} {
		if strings.Contains(payload, "+"+name) {
			return true
		}
	}
	return false
}
