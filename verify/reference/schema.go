package reference

import (
	"maps"
	"slices"
	"sort"

	"github.com/mut2cel/mut2cel/decl"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// node is what the checker needs of one schema node: how to walk below it
// and what it declares. It is built once by NewChecker from the raw schema.
type node struct {
	schemaPath string   // renderSteps of its path, reported as Violation.Declaration
	props      []prop   // sorted by name, so walks are deterministic
	items      *node    // schema of list items
	values     *node    // additionalProperties schema: values of a map
	listType   string   // x-kubernetes-list-type; "" means atomic
	mapKeys    []string // x-kubernetes-list-map-keys, in declared order
	mut        string   // valid x-kubernetes-mutability, or ""
	keyMut     string   // valid x-kubernetes-key-mutability, or ""
	update     []string // valid x-kubernetes-update constraints, in updateConstraints order
	unions     []union  // valid x-kubernetes-unions entries, in declared order
	// unionsBelow is set when n or a node below it has a union.
	unionsBelow bool
	// optional is set on a property that a stored object may lack while
	// its parent is present: one its parent does not require and that has
	// no default (storage fills it in), or a nullable one (null is
	// absent, semantics.md 2.1). Presence changes start at such
	// properties (constraints.go).
	optional bool
	// fixed is set on a node whose enum has one value: no valid update
	// changes it.
	fixed bool
	// nullable is x-kubernetes nullable: on an entry, a null entry
	// exists without any of its properties (semantics.md 2.1).
	nullable bool
	// format is the format of a string node; formats is the modifier
	// x-mut2cel-formats: CompareAsValues, valid on this node; and
	// formattedBelow says that a string of a format the modifier
	// compares as values is at or below the node (formats.go).
	format         string
	formats        bool
	formattedBelow bool
	// inSetItem is set at and below the items of a set (formats.go).
	inSetItem bool
	// presenceReads is set on a property whose presence a rule can only
	// test by reading its value: one the schema does not keep present
	// (optional, or a property of an entry that may be null).
	presenceReads bool
}

type prop struct {
	name string
	node *node
}

// property returns the schema of a named property, nil when unknown. A nil
// node stands for a value without schema (preserved unknown fields).
func (n *node) property(name string) *node {
	if n == nil {
		return nil
	}
	i := sort.Search(len(n.props), func(i int) bool { return n.props[i].name >= name })
	if i < len(n.props) && n.props[i].name == name {
		return n.props[i].node
	}
	return nil
}

// child returns the schema of the value under key of an object or map.
func (n *node) child(key string) *node {
	if n == nil {
		return nil
	}
	if n.values != nil {
		return n.values
	}
	return n.property(key)
}

func (n *node) itemNode() *node {
	if n == nil {
		return nil
	}
	return n.items
}

// isMap tells maps from objects: a null map value is a value, a null object
// property is absent (semantics.md 2.1).
func (n *node) isMap() bool {
	return n != nil && n.values != nil
}

// where tells which declarations a position in the schema forbids (1.1.2,
// 1.1.5, and 9.2.2 for entry, an items or additionalProperties schema).
type where struct {
	root, metadata, junctor, entry bool
}

// below is the place of a subschema that is not the root's metadata.
func (w where) below() where {
	return where{metadata: w.metadata, junctor: w.junctor}
}

// entries is the place of an items or additionalProperties schema.
func (w where) entries() where {
	in := w.below()
	in.entry = true
	return in
}

// parser builds the node tree and collects every invalid declaration.
type parser struct {
	errs field.ErrorList
}

func (p *parser) parse(raw map[string]interface{}, path *field.Path, at where) *node {
	p.checkDeclarations(raw, path, at)
	p.parseJunctors(raw, path, at)
	n := &node{
		listType: stringOf(raw[extListType]),
		mapKeys:  stringsOf(raw[extListMapKeys]),
		mut:      validValue(raw[extMutability]),
		keyMut:   validValue(raw[extKeyMutability]),
		update:   validUpdate(raw[extUpdate]),
		unions:   p.parseUnions(raw, path, at),
	}
	n.nullable = raw["nullable"] == true
	if raw["type"] == "string" {
		n.format = stringOf(raw["format"])
	}
	n.formats = raw[extFormats] == decl.CompareAsValues
	if enum, ok := raw["enum"].([]interface{}); ok && len(enum) == 1 {
		n.fixed = true
	}
	n.props = p.parseProperties(raw, path, at)
	if items, ok := raw["items"].(map[string]interface{}); ok {
		n.items = p.parse(items, path.Child("items"), at.entries())
	}
	// additionalProperties true or false is not a schema: no map.
	if values, ok := raw["additionalProperties"].(map[string]interface{}); ok {
		n.values = p.parse(values, path.Child("additionalProperties"), at.entries())
	}
	return n
}

func (p *parser) parseProperties(raw map[string]interface{}, path *field.Path, at where) []prop {
	props, _ := raw["properties"].(map[string]interface{})
	required := map[string]bool{}
	for _, r := range stringsOf(raw["required"]) {
		required[r] = true
	}
	var out []prop
	for _, name := range slices.Sorted(maps.Keys(props)) {
		sub, ok := props[name].(map[string]interface{})
		if !ok {
			continue
		}
		below := at.below()
		below.metadata = below.metadata || (at.root && name == "metadata")
		n := p.parse(sub, path.Child("properties").Key(name), below)
		_, defaulted := sub["default"]
		n.optional = (!required[name] && !defaulted) || sub["nullable"] == true
		n.presenceReads = n.optional || at.entry && raw["nullable"] == true
		out = append(out, prop{name: name, node: n})
	}
	return out
}

// parseJunctors reads junctor branches only to find declarations inside
// them; their nodes are dropped because junctors do not describe fields.
func (p *parser) parseJunctors(raw map[string]interface{}, path *field.Path, at where) {
	inside := at.below()
	inside.junctor = true
	for _, name := range []string{"allOf", "anyOf", "oneOf"} {
		branches, _ := raw[name].([]interface{})
		for i, b := range branches {
			if sub, ok := b.(map[string]interface{}); ok {
				p.parse(sub, path.Child(name).Index(i), inside)
			}
		}
	}
	if sub, ok := raw["not"].(map[string]interface{}); ok {
		p.parse(sub, path.Child("not"), inside)
	}
}

// err returns the collected errors sorted, so the message is the same on
// every run whatever the map order of the input.
func (p *parser) err() error {
	sort.SliceStable(p.errs, func(i, j int) bool { return p.errs[i].Error() < p.errs[j].Error() })
	return p.errs.ToAggregate()
}

func stringOf(v interface{}) string {
	s, _ := v.(string)
	return s
}

func stringsOf(v interface{}) []string {
	list, _ := v.([]interface{})
	var out []string
	for _, e := range list {
		out = append(out, stringOf(e))
	}
	return out
}
