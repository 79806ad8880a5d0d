package kustomize

import (
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/edit"
)

// op is one JSON6902 operation, as a map so that a false, zero or empty
// value is still written.
type op map[string]interface{}

func opOf(kind, path string, value interface{}, hasValue bool) op {
	o := op{"op": kind, "path": path}
	if hasValue {
		o["value"] = value
	}
	return o
}

// diffOps returns the operations that turn a into b, both decoded JSON
// values at pointer path. Maps are compared key by key and lists item by
// item; anything else that differs is replaced.
//
// The CRD the component is applied to may be a later upstream release
// than a. So that the build fails rather than lose what upstream changed,
// every operation that would overwrite or delete a value is preceded by a
// test that the value is still the one in a; an add to a map is preceded
// by a test for null, which kustomize passes only when the key is absent
// (TestKustomizeJSONPatch). Appending to a list with "/-" keeps whatever
// the list holds and needs no guard.
func diffOps(path string, a, b interface{}) []op {
	switch {
	case isMap(a) && isMap(b):
		return diffMaps(path, a.(map[string]interface{}), b.(map[string]interface{}))
	case isList(a) && isList(b):
		return diffLists(path, a.([]interface{}), b.([]interface{}))
	}
	if reflect.DeepEqual(a, b) {
		return nil
	}
	return []op{test(path, a), opOf("replace", path, b, true)}
}

// versionsPath is the list whose items are told apart by name rather than
// by value (versionGuards).
var versionsPath = edit.Pointer(crd.VersionsPath())

// diffLists patches the common items in place, appends what b has more
// ("/-") and removes what it has less, from the end. A common item that
// is patched is first tested whole, so that an item upstream inserted
// before it cannot take its place; versions are tested by name instead.
func diffLists(path string, a, b []interface{}) []op {
	var ops []op
	for i := 0; i < min(len(a), len(b)); i++ {
		item := path + "/" + strconv.Itoa(i)
		nested := diffOps(item, a[i], b[i])
		if len(nested) > 0 && path != versionsPath {
			ops = append(ops, test(item, a[i]))
		}
		ops = append(ops, nested...)
	}
	for _, item := range b[min(len(a), len(b)):] {
		ops = append(ops, opOf("add", path+"/-", item, true))
	}
	for i := len(a) - 1; i >= len(b); i-- {
		item := path + "/" + strconv.Itoa(i)
		ops = append(ops, test(item, a[i]), opOf("remove", item, nil, false))
	}
	return ops
}

func diffMaps(path string, a, b map[string]interface{}) []op {
	var ops []op
	for _, k := range slices.Sorted(maps.Keys(a)) {
		if _, ok := b[k]; !ok {
			key := path + "/" + edit.PointerToken(k)
			ops = append(ops, test(key, a[k]), opOf("remove", key, nil, false))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(b)) {
		key := path + "/" + edit.PointerToken(k)
		av, ok := a[k]
		if !ok {
			ops = append(ops, test(key, nil), opOf("add", key, b[k], true))
			continue
		}
		ops = append(ops, diffOps(key, av, b[k])...)
	}
	return ops
}

// test is the guard that the value at path is still v; for nil, that
// nothing is there.
func test(path string, v interface{}) op {
	return opOf("test", path, v, true)
}

// versionGuards returns a test operation on the name of every version
// that ops change, in index order.
func versionGuards(ops []op, base map[string]interface{}) []op {
	model, err := crd.Read(base)
	if err != nil {
		return nil
	}
	versions := model.Versions
	seen := map[int]bool{}
	for _, o := range ops {
		rest, ok := strings.CutPrefix(o["path"].(string), versionsPath+"/")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.SplitN(rest, "/", 2)[0])
		if err == nil && n < len(versions) {
			seen[n] = true
		}
	}
	var guards []op
	for n := range versions {
		if seen[n] {
			guards = append(guards, test(versionsPath+"/"+strconv.Itoa(n)+"/name", versions[n].Name))
		}
	}
	return guards
}

func isMap(v interface{}) bool {
	_, ok := v.(map[string]interface{})
	return ok
}

func isList(v interface{}) bool {
	_, ok := v.([]interface{})
	return ok
}
