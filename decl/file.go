package decl

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"
)

// The type of a declarations file document.
const (
	FileAPIVersion = "mut2cel.io/v1alpha1"
	FileKind       = "Declarations"
)

// Set is one document of a declarations file: the declarations of one
// CRD, for CRDs the user does not own (docs/translation.md):
//
//	apiVersion: mut2cel.io/v1alpha1
//	kind: Declarations
//	crd: volumegroupsnapshotclasses.groupsnapshot.storage.k8s.io
//	versions: [v1beta1]      # optional: every served version
//	kubeVersion: "1.33"      # optional: the Kubernetes version the rules are for
//	fields:
//	  .parameters:
//	    x-kubernetes-update: [NoUnset, NoModify]
//	  .driver:
//	    x-kubernetes-mutability: Immutable
//	  .spec.ports:
//	    maxItems: 16         # a bound, where the rules need one
type Set struct {
	CRD string
	// Versions are the versions declared; empty means every served
	// version of the CRD.
	Versions []Named
	// KubeVersion is the Kubernetes version the rules of the CRD are
	// made for, as written ("1.33"); empty when the document does not
	// say. Its range is the compiler's to check.
	KubeVersion Named
	Fields      []Field
	Source      Source // the document's start
}

// Named is a version name and where it was written.
type Named struct {
	Name   string
	Source Source
}

// Field is the declarations of one schema path.
type Field struct {
	Path Path
	// Values holds each declared extension with its value in the form the
	// mut2cel.io/declarations annotation keeps: the KEP values as they
	// are, the update constraints as Constraints.String.
	Values map[string]string
	// Bounds are the maxItems, maxLength and maxProperties given for the
	// node (BoundKeywords): the values the compiler uses where its rules
	// need a bound there. A field may give bounds and no declaration.
	Bounds map[string]int64
	Source Source
}

// BoundKeywords are the bounds a declarations file may give a node.
var BoundKeywords = []string{"maxItems", "maxLength", "maxProperties"}

func isBoundKeyword(key string) bool {
	for _, k := range BoundKeywords {
		if k == key {
			return true
		}
	}
	return false
}

// ParseFile reads every document of a declarations file; name is the
// file's name for messages. Every problem is reported, as Errors; with
// them come the sets of the documents whose crd, versions and kind were
// read, holding the fields that were read too, so that the caller can
// report what is wrong with those in the same run.
func ParseFile(name string, data []byte) ([]Set, error) {
	var sets []Set
	var errs Errors
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			errs = append(errs, &Error{Source{name, yamlErrorLine(err)}, "not YAML: " + cleanYAML(err)})
			break
		}
		if len(doc.Content) == 0 || doc.Content[0].Kind == yaml.ScalarNode && doc.Content[0].Tag == "!!null" {
			continue // an empty document
		}
		if dup, first := duplicateKey(&doc); dup != nil {
			// A decoder keeps the last of two keys: the first
			// declaration would vanish without a word.
			errs = append(errs, &Error{Source{name, dup.Line}, fmt.Sprintf("key %q is written twice in one mapping (first at line %d); remove one", dup.Value, first.Line)})
			continue
		}
		if err := expandable(&doc); err != nil {
			errs = append(errs, &Error{Source{name, doc.Line}, "not YAML: " + cleanYAML(err)})
			continue
		}
		r := &fileReader{name: name}
		if s, ok := r.set(doc.Content[0]); ok {
			sets = append(sets, s)
		}
		errs = append(errs, r.errs...)
	}
	if len(errs) > 0 {
		errs.Sort()
		return sets, errs
	}
	if len(sets) == 0 {
		return nil, Errors{{Source{name, 0}, "no declarations: want documents of kind " + FileKind}}
	}
	return sets, nil
}
