package batch

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/mut2cel/mut2cel/manifest"
	"github.com/mut2cel/mut2cel/translate"
)

// Census counts the documents of a run's inputs: the CRDs the commands
// work on, and, input by input, the others, which translate passes
// through and the other commands skip. A run that found no CRD did
// nothing, which is not success (NoCRD); the documents left alone are
// reported, one line an input (Add), so that a manifest given by mistake
// does not pass for one that was checked.
type Census struct {
	// CRDs is how many CRD documents the inputs added hold.
	CRDs  int
	notes []Diagnostic
}

// Add counts the documents of one input, f as it parsed (nil when it did
// not, which counts nothing), and returns the note on those that are not
// CRDs, if it has any, which Notes returns too.
func (c *Census) Add(name string, f *manifest.File) []Diagnostic {
	if f == nil {
		return nil
	}
	others, kinds := 0, map[string]bool{}
	for _, d := range f.Docs {
		// The kind alone, not a copy of the whole document.
		apiVersion, kind, mapping := d.Kind()
		switch {
		case !mapping: // only comments
		case translate.IsCRD(map[string]interface{}{"apiVersion": apiVersion, "kind": kind}):
			c.CRDs++
		default:
			others++
			if kind == "" {
				kind = "no kind"
			}
			kinds[kind] = true
		}
	}
	if others == 0 {
		return nil
	}
	note := Diagnostic{File: name, Detail: notCRDs(others, kinds)}
	c.notes = append(c.notes, note)
	return []Diagnostic{note}
}

// notCRDs says "3 documents are not CustomResourceDefinitions (kinds:
// Deployment, Service)".
func notCRDs(n int, kinds map[string]bool) string {
	names := slices.Sorted(maps.Keys(kinds))
	list := diag.Plural(len(names), "kind") + ": " + strings.Join(names, ", ")
	if n == 1 {
		return fmt.Sprintf("1 document is not a CustomResourceDefinition (%s)", list)
	}
	return fmt.Sprintf("%d documents are not CustomResourceDefinitions (%s)", n, list)
}

// Notes are the notes Add returned, in the order of the inputs.
func (c *Census) Notes() []Diagnostic { return c.notes }

// NoCRD is the error of a run whose inputs, named by paths as Collect
// reads them, hold no CRD; nil when they hold one.
func (c *Census) NoCRD(paths []string) []Diagnostic {
	if c.CRDs > 0 {
		return nil
	}
	return []Diagnostic{{Detail: "no CustomResourceDefinition found in " + PathNames(paths)}}
}

// NoDeclarations is the error of a run whose inputs, named by paths as
// Collect reads them, hold CRDs that declare nothing: there was nothing to
// translate or to check, which is not success. flags are the command's
// flags that declare from outside the CRDs.
func NoDeclarations(paths []string, flags ...string) Diagnostic {
	return Diagnostic{Detail: fmt.Sprintf("no declarations in %s: declare some in the CRD schemas (%s) or in the %s annotation, or give %s",
		PathNames(paths), decl.KindNames(", ", " or "), decl.AnnotationDeclarations, strings.Join(flags, " or "))}
}

// PathNames names the inputs of paths in a message, as Collect reads
// them: standard input for "-" or no path at all.
func PathNames(paths []string) string {
	if len(paths) == 0 {
		return StdinName
	}
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = p
		if p == "-" {
			names[i] = StdinName
		}
	}
	return strings.Join(names, ", ")
}
