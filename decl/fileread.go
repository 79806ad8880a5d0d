package decl

import (
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// fileReader reads one document of a declarations file, collecting
// every problem as it goes.
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
