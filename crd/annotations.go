package crd

import "github.com/mut2cel/mut2cel/decl"

// Own is what mut2cel keeps in a CRD's annotations (docs/rewrite.md):
// the declarations moved out of the schemas and the record of the rules
// an earlier run generated, read once with decl's codec.
type Own struct {
	// Declarations is the mut2cel.io/declarations annotation as read:
	// empty when absent or unreadable.
	Declarations decl.Annotation
	// Record is the mut2cel.io/generated annotation as read: empty when
	// absent or unreadable.
	Record decl.Record
	// KubeVersion is the mut2cel.io/kube-version annotation as read: the
	// Kubernetes version the generated rules were made for ("1.33"),
	// empty when absent or unreadable; the compiler checks its range.
	KubeVersion string
	// HasDeclarations, HasRecord and HasKubeVersion report that the
	// annotation is present, whether or not it reads.
	HasDeclarations, HasRecord, HasKubeVersion bool
	// Errors are the annotations that are present and do not read, the
	// declarations' first: the reader words them (translate, verify).
	Errors []*AnnotationError
}

// AnnotationError is one of mut2cel's annotations that does not read.
type AnnotationError struct {
	Name string // decl.AnnotationDeclarations, AnnotationGenerated or AnnotationKubeVersion
	// Value is the annotation's value when it is not a string; Err is
	// nil then.
	Value     interface{}
	NotString bool
	// Err is why the text does not read.
	Err error
}

func (e *AnnotationError) Error() string {
	if e.NotString {
		return e.Name + ": annotations are strings"
	}
	return e.Name + ": " + e.Err.Error()
}

// readOwn reads mut2cel's annotations out of metadata.annotations.
func readOwn(annotations map[string]interface{}) Own {
	own := Own{Declarations: decl.Annotation{}, Record: decl.Record{}}
	if text, ok := own.text(annotations, decl.AnnotationDeclarations); ok {
		own.HasDeclarations = true
		a, err := decl.ParseAnnotation(text)
		if err != nil {
			own.Errors = append(own.Errors, &AnnotationError{Name: decl.AnnotationDeclarations, Err: err})
			a = decl.Annotation{}
		}
		own.Declarations = a
	}
	if text, ok := own.text(annotations, decl.AnnotationGenerated); ok {
		own.HasRecord = true
		r, err := decl.ParseRecord(text)
		if err != nil {
			own.Errors = append(own.Errors, &AnnotationError{Name: decl.AnnotationGenerated, Err: err})
			r = decl.Record{}
		}
		own.Record = r
	}
	if text, ok := own.text(annotations, decl.AnnotationKubeVersion); ok {
		own.HasKubeVersion = true
		v, err := decl.ParseKubeVersionRecord(text)
		if err != nil {
			own.Errors = append(own.Errors, &AnnotationError{Name: decl.AnnotationKubeVersion, Err: err})
		}
		own.KubeVersion = v
	}
	return own
}

// text is the value of the annotation name when it is present and a
// string; a value of another type is an error, and reads as absent.
func (own *Own) text(annotations map[string]interface{}, name string) (string, bool) {
	v, ok := annotations[name]
	if !ok {
		return "", false
	}
	s, isString := v.(string)
	if !isString {
		own.Errors = append(own.Errors, &AnnotationError{Name: name, Value: v, NotString: true})
		return "", false
	}
	return s, true
}
