package validity

import (
	"strconv"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
	"k8s.io/kube-openapi/pkg/validation/validate"
)

// schemaErrors returns what ObjectValidator.Validate returns for obj,
// which the schema validation or listtype refuses: the errors of both,
// and none of the rules, which the apiserver then does not evaluate.
//
// kube-openapi's errors of a value depend on nothing but the value, its
// schema and the path it is given, which its messages name; those of an
// object are those of its values that fail. So the errors are those of
// kube-openapi run at the deepest node that holds every value failing
// its own checks (validHere), given that node's path, as the validation
// of the whole object would have run it there: where a mutation or a
// draw broke one field of a large object, kube-openapi walks its parent.
func (v *Validator) schemaErrors(obj map[string]interface{}) field.ErrorList {
	var errs field.ErrorList
	var f failures
	f.walk(v.o, obj)
	if f.sites > 0 {
		o, value, path := v.o, interface{}(obj), ""
		for _, st := range f.common {
			if st.index {
				o, value = o.items, value.([]interface{})[st.i]
				path += "[" + strconv.Itoa(st.i) + "]"
				continue
			}
			o, value = o.child(st.key), value.(map[string]interface{})[st.key]
			if path != "" {
				path += "."
			}
			path += st.key
		}
		errs = o.kubeErrors(value, path)
	}
	if !v.s.listsValid(obj) {
		errs = append(errs, listtype.ValidateListSetsAndMaps(nil, v.s.st, obj)...)
	}
	return errs
}

// failures finds the way to the deepest node that holds every value
// failing the checks of its node.
type failures struct {
	steps  []pathStep // the way to the value walk is at
	common []pathStep // a prefix of the way to every site found
	sites  int
}

type pathStep struct {
	key   string
	i     int
	index bool
}

func (f *failures) walk(o *onode, v interface{}) {
	if o == nil {
		return
	}
	if !o.validHere(v) {
		f.site()
	}
	if o.delegate {
		return // its validation covered all of v
	}
	switch x := v.(type) {
	case map[string]interface{}:
		for k, e := range x {
			if c := o.child(k); c != nil {
				f.steps = append(f.steps, pathStep{key: k})
				f.walk(c, e)
				f.steps = f.steps[:len(f.steps)-1]
			}
		}
	case []interface{}:
		if o.items != nil {
			for i, e := range x {
				f.steps = append(f.steps, pathStep{i: i, index: true})
				f.walk(o.items, e)
				f.steps = f.steps[:len(f.steps)-1]
			}
		}
	}
}

// site records that the value at the end of steps fails.
func (f *failures) site() {
	f.sites++
	if f.sites == 1 {
		f.common = append([]pathStep(nil), f.steps...)
		return
	}
	n := 0
	for n < len(f.common) && n < len(f.steps) && f.common[n] == f.steps[n] {
		n++
	}
	f.common = f.common[:n]
}

// kubeErrors runs kube-openapi's validation of v, at path, against the
// node, as the validation of the whole object runs it there, and returns
// its errors as the apiserver words them (ValidateCustomResource).
func (n *onode) kubeErrors(v interface{}, path string) field.ErrorList {
	return apiservervalidation.ValidateCustomResource(nil, v, atPath{n, path})
}

// atPath is kube-openapi's validator of one node at a path.
type atPath struct {
	n    *onode
	path string
}

func (a atPath) Validate(v interface{}, _ ...apiservervalidation.ValidationOption) *validate.Result {
	return validate.NewSchemaValidator(a.n.s, nil, a.path, strfmt.Default).Validate(v)
}
