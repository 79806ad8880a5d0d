package markers

import (
	"fmt"
	"strings"
	"sync/atomic"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/mut2cel/mut2cel/decl"
)

// The marker names read, each on fields and on types.
const (
	nameImmutable     = "immutable"      // the KEP's
	nameImmutableKeys = "immutable-keys" // the KEP's
	nameK8sImmutable  = "k8s:immutable"  // validation-gen's, and controller-gen's since v0.21
	nameK8sUpdate     = "k8s:update"
	nameK8sEachVal    = "k8s:eachVal"
	// nameFormats is mut2cel's own modifier (decl.ExtFormats), beside
	// one of the markers above on the same field or type.
	nameFormats = "mut2cel:formats"
)

var markerNames = []string{nameImmutable, nameImmutableKeys, nameK8sImmutable, nameK8sUpdate, nameK8sEachVal, nameFormats}

// register adds controller-gen's CRD markers, so that schemas come out
// as controller-gen makes them, and mut2cel's markers. Registering
// k8s:immutable replaces controller-gen's definition: the parsed value is
// then a mark, which leaves a sentinel instead of controller-gen's rule,
// while controller-gen's schema code still sees a k8s:immutable marker on
// the field.
func register(reg *ctmarkers.Registry) error {
	if err := crdmarkers.Register(reg); err != nil {
		return err
	}
	for _, name := range markerNames {
		for _, target := range []ctmarkers.TargetType{ctmarkers.DescribesField, ctmarkers.DescribesType} {
			if err := reg.Define(name, target, mark{}); err != nil {
				return err
			}
		}
	}
	return nil
}

// mark is one marker as parsed: the declaration it makes, below the node
// it is written on. Its id, unique in the process, is what the sentinel
// in the generated schema carries back to it (sites).
type mark struct {
	id int
	// text is the marker as written, without "//".
	text string
	// below leads from the marked node to the declaring one: [*] for
	// eachVal.
	below decl.Path
	// ext and value are the declaration; ext is empty for an eachVal
	// payload that is not about updates (validation-gen's +k8s:minimum and
	// the like), which mut2cel leaves alone.
	ext   string
	value string
	// update holds the constraints of value, for decl.ExtUpdate.
	update decl.Constraints
	// err says why the marker cannot be read. It is kept here and
	// reported at the marker's line (markErrors) rather than given to
	// controller-tools, which would then drop the markers of the whole
	// package, so that the other markers' problems surface in the same
	// run.
	err error
}

// lastID numbers the marks of the process, so that a sentinel names one
// mark whichever package and run it came from.
var lastID atomic.Int64

// sentinelRule marks the schema node a mark applies to; the rule never
// leaves this package.
const sentinelRule = "mut2cel.io/marker"

// ApplyToSchema leaves the sentinel: controller-tools applies a mark where
// controller-gen applies its own markers, and copies it with the schema
// of a type to every place the type is used.
func (m mark) ApplyToSchema(_ *crdmarkers.SchemaContext, schema *apiextensionsv1.JSONSchemaProps) error {
	if m.ext == "" || m.err != nil {
		return nil
	}
	schema.XValidations = append(schema.XValidations, apiextensionsv1.ValidationRule{
		Rule: sentinelRule, Message: fmt.Sprint(m.id),
	})
	return nil
}

// ParseMarker reads one marker; a marker it cannot read keeps its error
// (mark.err).
func (m *mark) ParseMarker(_, name, rest string) error {
	m.id = int(lastID.Add(1))
	m.text = "+" + name
	if rest != "" {
		m.text += "=" + rest
	}
	m.err = m.parse(name, rest)
	return nil
}

func (m *mark) parse(name, rest string) error {
	if strings.HasPrefix(name, "k8s:") {
		rest = stripTagComment(rest)
	}
	switch name {
	case nameImmutable, nameImmutableKeys:
		return m.kep(name, rest)
	case nameK8sImmutable:
		if rest != "" {
			return fmt.Errorf("+%s takes no value (it means +k8s:update=NoSet, NoUnset and NoModify together)", name)
		}
		m.setUpdate(decl.FieldConstraints)
	case nameK8sUpdate:
		c, err := updateConstraint(rest)
		if err != nil {
			return err
		}
		m.setUpdate(c)
	case nameK8sEachVal:
		return m.eachVal(rest)
	case nameFormats:
		if k, _ := decl.KindNamed(decl.ExtFormats); k.Check(rest) != nil {
			return fmt.Errorf("+%s=%s: want +%s=%s", name, rest, name, decl.CompareAsValues)
		}
		m.ext, m.value = decl.ExtFormats, rest
	default:
		return fmt.Errorf("+%s: not a marker mut2cel reads", name)
	}
	return nil
}

// kep reads the KEP's +immutable and +immutable-keys, whose value
// defaults to Immutable.
func (m *mark) kep(name, rest string) error {
	m.ext = decl.ExtMutability
	if name == nameImmutableKeys {
		m.ext = decl.ExtKeyMutability
	}
	if rest == "" {
		rest = decl.Immutable
	}
	if k, _ := decl.KindNamed(m.ext); k.Check(rest) != nil {
		return fmt.Errorf("+%s=%s: want +%s, +%s=%s or +%s=%s", name, rest, name, name, decl.AddOnly, name, decl.RemoveOnly)
	}
	m.value = rest
	return nil
}

// updateConstraint reads the value of one +k8s:update, which names one
// constraint: validation-gen reads no list, so several are several
// markers.
func updateConstraint(value string) (decl.Constraints, error) {
	if strings.Contains(value, ",") {
		return 0, fmt.Errorf("+k8s:update=%s: one constraint per marker, as validation-gen reads them: write one +k8s:update line for each", value)
	}
	c, err := decl.ParseUpdate([]string{value})
	if err != nil {
		return 0, fmt.Errorf("+k8s:update=%s: %v", value, err)
	}
	return c, nil
}

// eachVal reads +k8s:eachVal=PAYLOAD, a declaration on the entries of
// the marked list or map. As in validation-gen, a payload at entry scope
// may only forbid changes of an entry that exists before and after:
// entries that appear or go are keys of the collection (docs/semantics.md
// 9.2).
func (m *mark) eachVal(payload string) error {
	if !strings.HasPrefix(payload, "+") {
		return fmt.Errorf("+%s=%s: the value is a marker, as in +%s=+k8s:update=NoModify", nameK8sEachVal, payload, nameK8sEachVal)
	}
	inner := &mark{}
	name, rest, _ := strings.Cut(payload[1:], "=")
	if err := inner.parse(name, rest); err != nil {
		if !isUpdateTag(name) {
			return nil // a validation mut2cel does not compile
		}
		return err
	}
	if inner.ext == "" {
		return nil
	}
	switch {
	case inner.ext != decl.ExtUpdate:
		return fmt.Errorf("+%s=%s: write the KEP marker on the item type, or +%s=+k8s:immutable", nameK8sEachVal, payload, nameK8sEachVal)
	case name == nameK8sImmutable:
		inner.setUpdate(decl.Of(decl.NoModify)) // an entry that exists before and after keeps its value
	case inner.update != decl.Of(decl.NoModify):
		return fmt.Errorf("+%s=%s: does not apply to an entry, attach +k8s:update=NoAddItem or NoRemoveItem to the list or map itself (an entry that appears or goes is a key of its collection)", nameK8sEachVal, payload)
	}
	m.setUpdate(inner.update)
	m.below = append(decl.Path{{Entries: true}}, inner.below...)
	return nil
}

func (m *mark) setUpdate(c decl.Constraints) {
	m.ext, m.value, m.update = decl.ExtUpdate, c.String(), c
}

// isUpdateTag reports whether a validation-gen tag name speaks of updates.
func isUpdateTag(name string) bool {
	return name == nameK8sImmutable || name == nameK8sUpdate || name == nameK8sEachVal
}

// stripTagComment drops a trailing "# comment", as the tag parser of
// validation-gen (gengo codetags) and controller-gen's k8s: markers do.
func stripTagComment(s string) string {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}
