package component

import (
	"reflect"
	"sort"
	"strconv"
	"strings"
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
	return []op{opOf("replace", path, b, true)}
}

// diffLists patches the common items in place, appends what b has more
// ("/-") and removes what it has less, from the end.
func diffLists(path string, a, b []interface{}) []op {
	var ops []op
	for i := 0; i < min(len(a), len(b)); i++ {
		ops = append(ops, diffOps(path+"/"+strconv.Itoa(i), a[i], b[i])...)
	}
	for _, item := range b[min(len(a), len(b)):] {
		ops = append(ops, opOf("add", path+"/-", item, true))
	}
	for i := len(a) - 1; i >= len(b); i-- {
		ops = append(ops, opOf("remove", path+"/"+strconv.Itoa(i), nil, false))
	}
	return ops
}

func diffMaps(path string, a, b map[string]interface{}) []op {
	var ops []op
	for _, k := range sortedKeys(a) {
		if _, ok := b[k]; !ok {
			ops = append(ops, opOf("remove", path+"/"+escape(k), nil, false))
		}
	}
	for _, k := range sortedKeys(b) {
		av, ok := a[k]
		if !ok {
			ops = append(ops, opOf("add", path+"/"+escape(k), b[k], true))
			continue
		}
		ops = append(ops, diffOps(path+"/"+escape(k), av, b[k])...)
	}
	return ops
}

// escape writes a key as a JSON pointer token (RFC 6901).
func escape(key string) string {
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}

// versionGuards returns a test operation on the name of every version
// that ops change, in index order.
func versionGuards(ops []op, base map[string]interface{}) []op {
	spec, _ := base["spec"].(map[string]interface{})
	versions, _ := spec["versions"].([]interface{})
	seen := map[int]bool{}
	for _, o := range ops {
		rest, ok := strings.CutPrefix(o["path"].(string), "/spec/versions/")
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
			name, _ := versions[n].(map[string]interface{})["name"].(string)
			guards = append(guards, opOf("test", "/spec/versions/"+strconv.Itoa(n)+"/name", name, true))
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

func sortedKeys(m map[string]interface{}) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
