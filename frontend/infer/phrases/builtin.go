package phrases

import (
	_ "embed"
	"strings"
	"sync"
)

// CRDs embed Kubernetes' own types (a Pod template, a Container, an
// ObjectMeta) and copy their documentation with them, sometimes reworded
// ("List of environment variables to set in the Step. Cannot be
// updated."). Those sentences say how the apiserver treats the built-in
// object (a running Pod's container), not how this CRD treats the copy:
// a JobSet's pod template is updated like any other field. The inference
// leaves out a sentence when the rest of its description is, word for
// word up to builtinSimilarity, the documentation Kubernetes gives a field
// of one of its built-in types (what the field is: "List of environment
// variables to set in the container."), and the sentence itself stands in
// that documentation as it is: a sentence the CRD's authors rewrote ("The
// field is immutable." for "This field is immutable.", "Populated by the
// cert-manager webhook on creation and immutable.") is theirs, and says
// what they mean for their field. The reference is the API this program
// is built with (k8s.io/api, through client-go's scheme), kept as the
// lines of builtin-docs.txt.

// builtinSimilarity is the least share of words two descriptions have in
// common (Jaccard) to be one documentation. Copies across Kubernetes
// releases and rewordings of the type's name ("Sidecar" for "container")
// score 0.58 and more in the corpus; a CRD's own descriptions that only
// share a phrasing with a built-in one score 0.36 and less.
const builtinSimilarity = 0.5

// minRestWords is the fewest words the rest of a description must have
// to be recognised: "The class of the widget." says too little to be
// anyone's copy.
const minRestWords = 4

// builtinDoc is one documented field of a built-in type.
type builtinDoc struct {
	where string // Type.field
	text  string // Normalized
}

var builtinDocs = sync.OnceValue(func() []builtinDoc {
	var out []builtinDoc
	for _, line := range strings.Split(strings.TrimSuffix(builtinDocsText, "\n"), "\n") {
		where, text, _ := strings.Cut(line, "\t")
		out = append(out, builtinDoc{where: where, text: text})
	}
	return out
})

// builtinDocsText has a line per documented field of a built-in type
// whose documentation reads as immutability: Type.field, a tab, and the
// documentation Normalized. TestBuiltinDocs writes it from the API types
// client-go's scheme registers, read as indexBuiltinDocs reads them (go
// test -update), and fails where it differs: linking the scheme would
// keep every built-in type and its documentation in the binary, about 18
// MB, for these few hundred lines.
//
//go:embed builtin-docs.txt
var builtinDocsText string

func readsAsImmutability(doc, name string) bool {
	for _, s := range Sentences(doc) {
		if _, ok := Read(s, Context{Name: name, Message: true}); ok {
			return true
		}
	}
	return false
}

// CopiedBuiltin names the built-in field whose documentation the
// description copies, sentence included, if it does.
func CopiedBuiltin(description, sentence string) (string, bool) {
	s := Normalized(sentence)
	rest := wordSet(strings.Replace(Normalized(description), s, " ", 1))
	if len(rest) < minRestWords {
		return "", false
	}
	for _, d := range builtinDocs() {
		if !strings.Contains(d.text, s) {
			continue
		}
		if jaccard(rest, wordSet(strings.Replace(d.text, s, " ", 1))) >= builtinSimilarity {
			return d.where, true
		}
	}
	return "", false
}

func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(Normalized(s)) {
		if w = strings.Trim(w, ".,;:()[]\"'"); w != "" {
			out[w] = true
		}
	}
	return out
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	both := 0
	for w := range a {
		if b[w] {
			both++
		}
	}
	return float64(both) / float64(len(a)+len(b)-both)
}
