package decl

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mut2cel/mut2cel/internal/diag"
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

// Source is where a declaration was written.
type Source struct {
	File string
	Line int
}

func (s Source) String() string {
	if s.Line == 0 {
		return s.File
	}
	return fmt.Sprintf("%s:%d", s.File, s.Line)
}

// Error is one problem of a declarations file, or of a declaration read
// from one, at its source.
type Error struct {
	Source Source
	Detail string
}

func (e *Error) Error() string { return e.Source.String() + ": " + e.Detail }

// Diagnostic is e as every phase reports problems.
func (e *Error) Diagnostic() diag.Diagnostic {
	return diag.Diagnostic{File: e.Source.File, Line: e.Source.Line, Detail: e.Detail}
}

// Errors is every problem found, sorted by file and line.
type Errors []*Error

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// Sort orders es by file, then line, then text.
func (es Errors) Sort() {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.Source.File != b.Source.File {
			return a.Source.File < b.Source.File
		}
		if a.Source.Line != b.Source.Line {
			return a.Source.Line < b.Source.Line
		}
		return a.Detail < b.Detail
	})
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

// duplicateKey returns the first key written a second time in one
// mapping of n, with its first occurrence; nil when there is none.
// Aliases are not followed.
func duplicateKey(n *yaml.Node) (dup, first *yaml.Node) {
	if n.Kind == yaml.MappingNode {
		seen := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if f, twice := seen[k.Value]; twice && k.Kind == yaml.ScalarNode {
				return k, f
			}
			seen[k.Value] = k
		}
	}
	if n.Kind == yaml.AliasNode {
		return nil, nil
	}
	for _, c := range n.Content {
		if dup, first = duplicateKey(c); dup != nil {
			return dup, first
		}
	}
	return nil, nil
}

// Anchors, aliases and merge keys (<<) are read as in the annotation
// (and as kubectl reads manifests): an alias stands for the node it names,
// and the keys a merge brings in yield to those written in the mapping.
// Alias expansion is bounded as when decoding: expandable decodes the
// document first, and yaml.v3 refuses one whose aliases would expand it
// out of proportion to its text ("billion laughs").

// expandable reports the error of decoding n, which bounds what reading
// its aliases may cost.
func expandable(n *yaml.Node) error {
	var v interface{}
	return n.Decode(&v)
}

// deref returns the node an alias stands for, or n.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// pairs returns the keys and values of mapping n, with those of its merge
// keys in: first the merged ones a key of n does not override, then n's
// own, in their order.
func pairs(n *yaml.Node) [][2]*yaml.Node {
	var own, merged [][2]*yaml.Node
	has := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		if k.Tag != "!!merge" {
			own, has[k.Value] = append(own, [2]*yaml.Node{k, v}), true
			continue
		}
		sources := []*yaml.Node{v}
		if v.Kind == yaml.SequenceNode {
			sources = v.Content
		}
		for _, src := range sources {
			if src = deref(src); src.Kind == yaml.MappingNode {
				merged = append(merged, pairs(src)...)
			}
		}
	}
	var out [][2]*yaml.Node
	for _, p := range merged {
		if !has[p[0].Value] {
			out, has[p[0].Value] = append(out, p), true
		}
	}
	return append(out, own...)
}

type fileReader struct {
	name string
	errs Errors
}

func (r *fileReader) at(n *yaml.Node) Source { return Source{r.name, n.Line} }

func (r *fileReader) fail(n *yaml.Node, format string, args ...interface{}) {
	r.errs = append(r.errs, &Error{r.at(n), fmt.Sprintf(format, args...)})
}

func (r *fileReader) set(doc *yaml.Node) (Set, bool) {
	s := Set{Source: r.at(doc)}
	if doc = deref(doc); doc.Kind != yaml.MappingNode {
		r.fail(doc, "want a mapping with apiVersion %s and kind %s", FileAPIVersion, FileKind)
		return s, false
	}
	var apiVersion, kind string
	var fields *yaml.Node
	for _, kv := range pairs(doc) {
		key, value := kv[0], kv[1]
		switch key.Value {
		case "apiVersion":
			apiVersion = r.str(value, "apiVersion")
		case "kind":
			kind = r.str(value, "kind")
		case "crd":
			s.CRD = r.str(value, "crd")
		case "versions":
			s.Versions = r.versions(value)
		case "kubeVersion":
			s.KubeVersion = r.kubeVersion(value)
		case "fields":
			fields = value
		default:
			r.fail(key, "unknown key %q: want apiVersion, kind, crd, versions, kubeVersion and fields", key.Value)
		}
	}
	if apiVersion != FileAPIVersion || kind != FileKind {
		r.fail(doc, "apiVersion %q, kind %q: want apiVersion %s and kind %s", apiVersion, kind, FileAPIVersion, FileKind)
		return s, false
	}
	if s.CRD == "" {
		r.fail(doc, "crd: required: the CRD's metadata.name, as in widgets.example.com")
	}
	if fields == nil || fields.Kind != yaml.MappingNode || len(fields.Content) == 0 {
		r.fail(doc, "fields: required: a map of schema path -> declarations, as in .spec.class: {x-kubernetes-mutability: Immutable}")
		return s, false
	}
	headerRead := len(r.errs) == 0
	for _, kv := range pairs(fields) {
		if f, ok := r.field(kv[0], kv[1]); ok {
			s.Fields = append(s.Fields, f)
		}
	}
	// The fields read well are kept beside the errors of the others, so
	// that a run checks them against the CRDs too: a wrong value and a
	// misspelt path come out in one run, not one after the other.
	return s, headerRead
}

func (r *fileReader) str(n *yaml.Node, what string) string {
	if n = deref(n); n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		r.fail(n, "%s: want a string", what)
		return ""
	}
	return n.Value
}

func (r *fileReader) versions(n *yaml.Node) []Named {
	if n = deref(n); n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		r.fail(n, "versions: want a list of version names, or leave it out for every served version")
		return nil
	}
	var out []Named
	seen := map[string]bool{}
	for _, v := range n.Content {
		name := r.str(v, "versions")
		if name != "" && seen[name] {
			r.fail(v, "versions: %s listed twice", name)
		}
		seen[name] = true
		out = append(out, Named{name, r.at(v)})
	}
	return out
}

// kubeVersionText is how a Kubernetes minor release is written: 1.33
// (a leading v is accepted, as on the command line).
var kubeVersionText = regexp.MustCompile(`^v?[0-9]+\.[0-9]+$`)

// kubeVersion reads the version the rules are for. Written unquoted,
// 1.30 is a YAML number: its text is taken as written.
func (r *fileReader) kubeVersion(n *yaml.Node) Named {
	n = deref(n)
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!str" && n.Tag != "!!float") || !kubeVersionText.MatchString(n.Value) {
		r.fail(n, "kubeVersion: want a Kubernetes version MAJOR.MINOR, as in \"1.33\"")
		return Named{}
	}
	return Named{strings.TrimPrefix(n.Value, "v"), r.at(n)}
}

func (r *fileReader) field(key, value *yaml.Node) (Field, bool) {
	f := Field{Source: r.at(key), Values: map[string]string{}}
	p, err := ParsePath(key.Value)
	if err != nil {
		r.fail(key, "%v", err)
		return f, false
	}
	f.Path = p
	if value.Kind != yaml.MappingNode || len(value.Content) == 0 {
		r.fail(value, "%s: want a map of extension -> value, as in {x-kubernetes-update: [NoModify]}", p)
		return f, false
	}
	ok := true
	for _, kv := range pairs(value) {
		ext, v := kv[0], kv[1]
		if isBoundKeyword(ext.Value) {
			var n int64
			if v.Kind != yaml.ScalarNode || v.Tag != "!!int" || v.Decode(&n) != nil || n < 1 {
				r.fail(ext, "%s: %s: want a positive integer", p, ext.Value)
				ok = false
				continue
			}
			if f.Bounds == nil {
				f.Bounds = map[string]int64{}
			}
			f.Bounds[ext.Value] = n
			continue
		}
		s, err := fileValue(ext.Value, v)
		if err != nil {
			r.fail(ext, "%s: %v", p, err)
			ok = false
			continue
		}
		f.Values[ext.Value] = s
	}
	return f, ok
}

// fileValue checks one declared value and gives it in annotation form.
// A file has no schema beside it to place a bad value, so the value is
// checked here in full (Kind.ReadChecked).
func fileValue(ext string, n *yaml.Node) (string, error) {
	k, ok := KindNamed(ext)
	if !ok {
		return "", fmt.Errorf("unknown key %s: declare %s, or give a bound (%s)", UnknownKey(ext), KindNames(", ", " or "), strings.Join(BoundKeywords, ", "))
	}
	var v interface{}
	if err := n.Decode(&v); err != nil {
		return "", fmt.Errorf("%s: %v", ext, err)
	}
	s, err := k.ReadChecked(v)
	if err != nil {
		return "", fmt.Errorf("%s: %v", ext, err)
	}
	return s, nil
}

// yamlErrorLine finds the line yaml.v3 names in a syntax error.
func yamlErrorLine(err error) int {
	var line int
	if _, scanErr := fmt.Sscanf(strings.TrimPrefix(err.Error(), "yaml: "), "line %d:", &line); scanErr != nil {
		return 0
	}
	return line
}

func cleanYAML(err error) string {
	s := strings.TrimPrefix(err.Error(), "yaml: ")
	if i := strings.Index(s, ": "); strings.HasPrefix(s, "line ") && i > 0 {
		return s[i+2:]
	}
	return s
}
