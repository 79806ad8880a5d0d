package shrink

import (
	"maps"
	"slices"

	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
)

// maxTries bounds the pairs tried while shrinking one pair.
const maxTries = 2000

// Pair minimises a pair for which keeps holds: it tries simpler pairs (a
// field or entry dropped from both objects or from one, a value made
// simpler) and keeps the first that is smaller and for which keeps still
// holds, until no candidate is, or maxTries candidates were tried. The
// pair given is not changed.
func Pair(old, new map[string]interface{}, keeps func(old, new map[string]interface{}) bool) (map[string]interface{}, map[string]interface{}) {
	tries := 0
	for tries < maxTries {
		improved := false
		for _, c := range candidates(old, new) {
			if tries++; tries > maxTries {
				break
			}
			if pairSize(c.old, c.new) >= pairSize(old, new) {
				continue
			}
			if keeps(c.old, c.new) {
				old, new, improved = c.old, c.new, true
				break
			}
		}
		if !improved {
			break
		}
	}
	return old, new
}

func pairSize(old, new map[string]interface{}) int {
	return len(jsonvalue.Canonical(old)) + len(jsonvalue.Canonical(new))
}

type candidate struct {
	old, new map[string]interface{}
}

// candidates lists simpler pairs, biggest cuts first: removals from
// both sides at a common position, then from one side, then simpler
// values.
func candidates(old, new map[string]interface{}) []candidate {
	var out []candidate
	oldPaths, newPaths := positions(old), positions(new)
	inOld := map[string]bool{}
	for _, p := range oldPaths {
		inOld[jsonvalue.Canonical(p)] = true
	}
	for _, p := range newPaths {
		if inOld[jsonvalue.Canonical(p)] {
			out = append(out, candidate{removeAt(old, p), removeAt(new, p)})
		}
	}
	out = append(out, matchedItems(old, new)...)
	for _, p := range oldPaths {
		out = append(out, candidate{removeAt(old, p), new})
	}
	for _, p := range newPaths {
		out = append(out, candidate{old, removeAt(new, p)})
	}
	for _, p := range newPaths {
		for _, s := range simpler(valueAt(new, p)) {
			if o, ok := lookup(old, p); ok && jsonvalue.Canonical(o) == jsonvalue.Canonical(valueAt(new, p)) {
				out = append(out, candidate{replaceAt(old, p, s), replaceAt(new, p, s)})
			}
			out = append(out, candidate{old, replaceAt(new, p, s)})
		}
	}
	for _, p := range oldPaths {
		for _, s := range simpler(valueAt(old, p)) {
			out = append(out, candidate{replaceAt(old, p, s), new})
		}
	}
	return out
}

// matchedItems removes an item from a list in both objects where the two
// lists hold it at different indices (a reordered set keeps its
// reordering when equal items are dropped).
func matchedItems(old, new map[string]interface{}) []candidate {
	var out []candidate
	for _, p := range append([][]interface{}{nil}, positions(new)...) {
		nl, ok1 := valueAt(new, p).([]interface{})
		ol, ok2 := valueAt(old, p).([]interface{})
		if len(p) == 0 || !ok1 || !ok2 {
			continue
		}
		for i, item := range nl {
			for j, o := range ol {
				if jsonvalue.Canonical(o) == jsonvalue.Canonical(item) {
					out = append(out, candidate{removeAt(old, append(p[:len(p):len(p)], j)), removeAt(new, append(p[:len(p):len(p)], i))})
					break
				}
			}
		}
	}
	return out
}

// simpler lists smaller values of the same JSON type.
func simpler(v interface{}) []interface{} {
	switch x := v.(type) {
	case map[string]interface{}:
		if len(x) > 0 {
			return []interface{}{map[string]interface{}{}}
		}
	case []interface{}:
		if len(x) > 0 {
			return []interface{}{[]interface{}{}}
		}
	case string:
		if len(x) > 1 {
			return []interface{}{"", x[:1]}
		}
		if x != "" {
			return []interface{}{""}
		}
	case bool:
		if x {
			return []interface{}{false}
		}
	case int64:
		if x != 0 {
			return []interface{}{int64(0)}
		}
	case float64:
		if x != 0 {
			return []interface{}{int64(0), float64(0)}
		}
	}
	return nil
}

// positions lists the paths (map keys and list indices) of every value
// inside v, parents before children.
func positions(v interface{}) [][]interface{} {
	var out [][]interface{}
	var walk func(v interface{}, path []interface{})
	walk = func(v interface{}, path []interface{}) {
		switch x := v.(type) {
		case map[string]interface{}:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				p := append(append([]interface{}{}, path...), k)
				out = append(out, p)
				walk(x[k], p)
			}
		case []interface{}:
			for i, e := range x {
				p := append(append([]interface{}{}, path...), i)
				out = append(out, p)
				walk(e, p)
			}
		}
	}
	walk(v, nil)
	return out
}

func lookup(v interface{}, path []interface{}) (interface{}, bool) {
	for _, s := range path {
		switch k := s.(type) {
		case string:
			m, ok := v.(map[string]interface{})
			if !ok {
				return nil, false
			}
			if v, ok = m[k]; !ok {
				return nil, false
			}
		case int:
			l, ok := v.([]interface{})
			if !ok || k >= len(l) {
				return nil, false
			}
			v = l[k]
		}
	}
	return v, true
}

func valueAt(v interface{}, path []interface{}) interface{} {
	x, _ := lookup(v, path)
	return x
}

// removeAt returns a copy of obj without the value at path.
func removeAt(obj map[string]interface{}, path []interface{}) map[string]interface{} {
	return editCopy(obj, path, func(parent interface{}, key interface{}) interface{} {
		switch p := parent.(type) {
		case map[string]interface{}:
			delete(p, key.(string))
		case []interface{}:
			i := key.(int)
			return append(p[:i:i], p[i+1:]...)
		}
		return parent
	})
}

// replaceAt returns a copy of obj with x at path.
func replaceAt(obj map[string]interface{}, path []interface{}, x interface{}) map[string]interface{} {
	return editCopy(obj, path, func(parent interface{}, key interface{}) interface{} {
		switch p := parent.(type) {
		case map[string]interface{}:
			p[key.(string)] = jsonvalue.Copy(x)
		case []interface{}:
			p[key.(int)] = jsonvalue.Copy(x)
		}
		return parent
	})
}

// editCopy copies obj and applies f to the container of the last step of path,
// storing what f returns in its place.
func editCopy(obj map[string]interface{}, path []interface{}, f func(parent, key interface{}) interface{}) map[string]interface{} {
	out := jsonvalue.CopyMap(obj)
	holder := []interface{}{out}
	var parent interface{} = holder
	var parentKey interface{} = 0
	cur := interface{}(out)
	for _, k := range path[:len(path)-1] {
		parent, parentKey = cur, k
		cur, _ = lookup(cur, []interface{}{k})
	}
	changed := f(cur, path[len(path)-1])
	switch p := parent.(type) {
	case map[string]interface{}:
		p[parentKey.(string)] = changed
	case []interface{}:
		p[parentKey.(int)] = changed
	}
	m, _ := holder[0].(map[string]interface{})
	return m
}
