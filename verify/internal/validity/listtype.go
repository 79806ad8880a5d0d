package validity

import (
	"k8s.io/apimachinery/pkg/util/json"
)

// The uniqueness of the items of sets and of the keys of list-maps, as
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype checks it
// (validateListSetsAndMapsArray), on one list: whether it finds no error.

// listOK reports whether the list l of a node of list type listType and
// map keys keys passes listtype's checks of that list (not of lists it
// holds).
func listOK(listType string, keys []string, l []interface{}) bool {
	switch listType {
	case "set":
		return unique(l)
	case "map":
		return listMapOK(keys, l)
	}
	return true
}

// unique is validateListSet finding no duplicate: scalars compared as Go
// values (the integer 1 and the float 1.0 differ), objects and lists by
// their JSON (where they are the same).
func unique(l []interface{}) bool {
	switch len(l) {
	case 0, 1:
		return true
	case 2:
		if !compound(l[0]) && !compound(l[1]) {
			return l[0] != l[1]
		}
	}
	var scalars map[interface{}]bool
	var compounds map[string]bool
	for _, x := range l {
		if compound(x) {
			bs, err := json.Marshal(x)
			if err != nil {
				return false // listtype reports an internal error
			}
			if compounds == nil {
				compounds = make(map[string]bool, len(l))
			}
			if compounds[string(bs)] {
				return false
			}
			compounds[string(bs)] = true
			continue
		}
		if scalars == nil {
			scalars = make(map[interface{}]bool, len(l))
		}
		if scalars[x] {
			return false
		}
		scalars[x] = true
	}
	return true
}

func compound(x interface{}) bool {
	switch x.(type) {
	case map[string]interface{}, []interface{}:
		return true
	}
	return false
}

// unspecifiedKey stands for the key of an item without it, as listtype's
// own unspecifiedKeyValue does.
type unspecifiedKey struct{}

// listMapOK is validateListMap finding no error.
func listMapOK(keyFields []string, l []interface{}) bool {
	for _, x := range l {
		if _, ok := x.(map[string]interface{}); x != nil && !ok {
			return false
		}
	}
	if len(l) <= 1 {
		return true
	}
	keys := make([]interface{}, 0, len(l))
	if len(keyFields) == 1 {
		keyField := keyFields[0]
		for _, x := range l {
			if x == nil {
				keys = append(keys, unspecifiedKey{})
				continue
			}
			key, ok := x.(map[string]interface{})[keyField]
			if !ok {
				keys = append(keys, unspecifiedKey{})
				continue
			}
			keys = append(keys, key)
		}
		return unique(keys)
	}
	for _, x := range l {
		key := map[string]interface{}{}
		if x != nil {
			for _, keyField := range keyFields {
				if k, ok := x.(map[string]interface{})[keyField]; ok {
					key[keyField] = k
				}
			}
		}
		keys = append(keys, key)
	}
	return unique(keys)
}
