package inputs

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/internal/diag"
)

// parseFloors reads the values of --bound-floor: KEYWORD=N sets the floor
// of a keyword everywhere, PATH:KEYWORD=N on the node at PATH.
func parseFloors(values []string) (map[string]int64, map[string]map[string]int64, error) {
	floors := map[string]int64{}
	nodes := map[string]map[string]int64{}
	for _, v := range values {
		spec, n, ok := strings.Cut(v, "=")
		value, err := strconv.ParseInt(n, 10, 64)
		if !ok || err != nil || value < 1 {
			return nil, nil, fmt.Errorf("%q: want KEYWORD=N or PATH:KEYWORD=N with N a positive integer", v)
		}
		path, keyword := "", spec
		if i := strings.LastIndex(spec, ":"); i >= 0 {
			path, keyword = spec[:i], spec[i+1:]
		}
		switch keyword {
		case "maxLength", "maxItems", "maxProperties":
		default:
			return nil, nil, fmt.Errorf("%q: the keyword must be maxLength, maxItems or maxProperties", v)
		}
		if path == "" {
			floors[keyword] = value
			continue
		}
		if !strings.HasPrefix(path, ".") {
			return nil, nil, fmt.Errorf("%q: a path starts with '.', as in the declarations annotation (.spec.ports[*].name)", v)
		}
		p, err := decl.ParsePath(path)
		if err != nil {
			return nil, nil, fmt.Errorf("%q: %v", v, err)
		}
		path = p.String() // translate looks floors up by the shortest notation
		if nodes[path] == nil {
			nodes[path] = map[string]int64{}
		}
		nodes[path][keyword] = value
	}
	return floors, nodes, nil
}

// floorPaths checks that the path of each PATH:KEYWORD=N of --bound-floor
// names a schema node of some CRD of the inputs. translate looks the
// floors up by the path of the node it bounds, so a mistyped path would
// set no floor, without a word.
type floorPaths struct {
	unfound map[string]decl.Path
	near    map[string]map[string]bool // paths the inputs have, a few characters from an unfound one
}

func newFloorPaths(nodes map[string]map[string]int64) *floorPaths {
	f := &floorPaths{unfound: map[string]decl.Path{}, near: map[string]map[string]bool{}}
	for path := range nodes {
		p, _ := decl.ParsePath(path) // parseFloors parsed it
		f.unfound[path] = p
	}
	return f
}

// see looks for the paths in every version of a CRD document, and keeps
// the nearest path of each version where one is missing, for a "did you
// mean".
func (f *floorPaths) see(doc map[string]interface{}) {
	if len(f.unfound) == 0 {
		return
	}
	model, err := crd.Read(doc)
	if err != nil {
		return
	}
	for _, v := range model.Versions {
		root := v.Raw
		if root == nil {
			continue
		}
		for path, p := range f.unfound {
			if _, ok := p.Resolve(root); ok {
				delete(f.unfound, path)
				continue
			}
			if near, ok := p.Nearest(root); ok {
				if f.near[path] == nil {
					f.near[path] = map[string]bool{}
				}
				f.near[path][near.String()] = true
			}
		}
	}
}

// unknown is an error for each path that no CRD of the inputs has, in the
// order of the flags.
func (f *floorPaths) unknown(values []string) []batch.Diagnostic {
	var diags []batch.Diagnostic
	for _, v := range values {
		spec, _, _ := strings.Cut(v, "=")
		i := strings.LastIndex(spec, ":")
		if i < 0 {
			continue
		}
		p, _ := decl.ParsePath(spec[:i])
		path := p.String()
		if _, ok := f.unfound[path]; !ok {
			continue
		}
		detail := fmt.Sprintf("--bound-floor %s: no CRD given has a schema node at %s", v, path)
		if s, ok := diag.Closest(path, slices.Sorted(maps.Keys(f.near[path]))); ok {
			detail += fmt.Sprintf(" (did you mean %s?)", s)
		}
		diags = append(diags, batch.Diagnostic{Detail: detail})
		delete(f.unfound, path) // once for a path given for two keywords
	}
	return diags
}
