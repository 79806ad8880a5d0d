package main

import (
	"fmt"
	"strconv"
	"strings"
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
		if nodes[path] == nil {
			nodes[path] = map[string]int64{}
		}
		nodes[path][keyword] = value
	}
	return floors, nodes, nil
}
