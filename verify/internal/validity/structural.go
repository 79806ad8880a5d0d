package validity

import (
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

// snode is a node of the structural schema: its list type, for listtype's
// checks, and its part of the apiserver's validator of rules.
type snode struct {
	st       *schema.Structural
	listType string
	mapKeys  []string
	// lists: a set or list-map is at or below the node.
	lists bool
	props map[string]*snode
	addl  *snode
	items *snode
	// cv is the part of the apiserver's validator of the rules at and
	// below the node, as its validator of the whole schema holds it,
	// that acts on create: nil where no rule is evaluated, and nodes
	// whose rules all read oldSelf, which are not evaluated on create,
	// without their rules (createPart). shallow is cv without what it
	// holds for the nodes below: the rules evaluated on the node's
	// value, its own and those of its allOf; nil for none.
	cv, shallow *cel.Validator
	// memo holds the values that passed the rules of shallow.
	memo memo
}

// newSnode builds the node of st, whose part of the apiserver's
// validator of rules is cv (nil for none).
func newSnode(st *schema.Structural, cv *cel.Validator, resourceRoot bool) *snode {
	n := &snode{st: st}
	if st.XListType != nil {
		n.listType = *st.XListType
		n.mapKeys = st.XListMapKeys
		n.lists = n.listType == "set" || n.listType == "map"
	}
	if len(st.Properties) > 0 {
		n.props = make(map[string]*snode, len(st.Properties))
		for k := range st.Properties {
			p := st.Properties[k]
			var pv *cel.Validator
			if cv != nil {
				if v, ok := cv.Properties[k]; ok {
					pv = &v
				}
			}
			n.props[k] = newSnode(&p, pv, p.XEmbeddedResource)
			n.lists = n.lists || n.props[k].lists
		}
	}
	if st.AdditionalProperties != nil && st.AdditionalProperties.Structural != nil {
		var av *cel.Validator
		if cv != nil {
			av = cv.AdditionalProperties
		}
		n.addl = newSnode(st.AdditionalProperties.Structural, av, st.AdditionalProperties.Structural.XEmbeddedResource)
		n.lists = n.lists || n.addl.lists
	}
	if st.Items != nil {
		var iv *cel.Validator
		if cv != nil {
			iv = cv.Items
		}
		n.items = newSnode(st.Items, iv, st.Items.XEmbeddedResource)
		n.lists = n.lists || n.items.lists
	}
	if cv != nil {
		n.cv, n.shallow = n.createPart(cv, resourceRoot)
	}
	return n
}

// createPart returns the part of cv, the validator of the node, that
// acts on create, with the parts of the nodes below, and the part that
// acts on the node's value alone; nil for none.
//
// On create the apiserver's validator does not evaluate a rule that reads
// oldSelf (without optionalOldSelf), but it still walks to it and
// prepares its variables. A node whose rules all read oldSelf, and
// compile, is kept for the nodes below, without its rules: the apiserver
// finds nothing there and spends none of the budget. The rules are
// compiled again here, as the validator compiled them, to know which
// read oldSelf; only those of nodes whose every rule names oldSelf.
func (n *snode) createPart(cv *cel.Validator, resourceRoot bool) (part, shallow *cel.Validator) {
	var items, addl *cel.Validator
	var props map[string]cel.Validator
	if n.items != nil {
		items = n.items.cv
	}
	if n.addl != nil {
		addl = n.addl.cv
	}
	for k, p := range n.props {
		if p.cv != nil {
			if props == nil {
				props = map[string]cel.Validator{}
			}
			props[k] = *p.cv
		}
	}
	acts := len(cv.AllOfValidators) > 0 || !readsOldSelfOnly(n.st, resourceRoot)
	if !acts && items == nil && addl == nil && props == nil {
		return nil, nil
	}
	if !acts {
		return &cel.Validator{Items: items, Properties: props, AdditionalProperties: addl, Schema: cv.Schema}, nil
	}
	whole, alone := *cv, *cv
	whole.Items, whole.Properties, whole.AdditionalProperties = items, props, addl
	alone.Items, alone.Properties, alone.AdditionalProperties = nil, nil, nil
	return &whole, &alone
}

// readsOldSelfOnly reports whether every rule of st compiles and reads
// oldSelf without optionalOldSelf, so that none is evaluated on create;
// true for none.
func readsOldSelfOnly(st *schema.Structural, resourceRoot bool) bool {
	if len(st.XValidations) == 0 {
		return true
	}
	for _, r := range st.XValidations {
		if !strings.Contains(r.Rule, cel.OldScopedVarName) || (r.OptionalOldSelf != nil && *r.OptionalOldSelf) {
			return false
		}
	}
	results, err := cel.Compile(st, model.SchemaDeclType(st, resourceRoot), celconfig.PerCallLimit,
		environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()), cel.StoredExpressionsEnvLoader())
	if err != nil {
		return false
	}
	for _, r := range results {
		if r.Error != nil || r.Program == nil || !r.UsesOldSelf {
			return false
		}
	}
	return true
}

// child is the node of the value of key k of an object of n, nil for
// none, and how the apiserver's validator of rules steps to it: 'p' for
// a property, 'k' for a key of additionalProperties. A structural schema
// has properties or additionalProperties, not both, so listtype and the
// rules take the same one.
func (n *snode) child(k string) (*snode, byte) {
	if n == nil {
		return nil, 'p'
	}
	if p, ok := n.props[k]; ok {
		return p, 'p'
	}
	if n.addl != nil {
		return n.addl, 'k'
	}
	return nil, 'p'
}

func (n *snode) itemsNode() *snode {
	if n == nil {
		return nil
	}
	return n.items
}

// listsValid reports whether listtype finds no error in v and what it
// holds (validationListSetAndMaps).
func (n *snode) listsValid(v interface{}) bool {
	if n == nil || !n.lists {
		return true
	}
	switch x := v.(type) {
	case []interface{}:
		if !listOK(n.listType, n.mapKeys, x) {
			return false
		}
		if n.items != nil {
			for _, e := range x {
				if !n.items.listsValid(e) {
					return false
				}
			}
		}
	case map[string]interface{}:
		for k, e := range x {
			if c, _ := n.child(k); !c.listsValid(e) {
				return false
			}
		}
	}
	return true
}
