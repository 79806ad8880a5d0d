package main

import (
	"fmt"
	"strings"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/frontend/builtin"
)

// builtinResources reads --builtin, from the --openapi documents when
// given; an unknown kind is a usage error.
func (o *policyOptions) builtinResources() ([]builtin.Resource, string) {
	if len(o.openapi) > 0 {
		return o.openAPIResources()
	}
	var out []builtin.Resource
	for _, s := range o.builtins {
		r, err := builtin.ParseResource(s)
		if err != nil {
			return nil, fmt.Sprintf("--builtin: %v", err)
		}
		out = append(out, r)
	}
	return out, ""
}

// openAPIResources reads the --openapi documents and finds each --builtin
// kind in exactly one of them; a document that serves none is a usage
// error too, as a flag that does nothing would pass for one that does.
func (o *policyOptions) openAPIResources() ([]builtin.Resource, string) {
	if len(o.builtins) == 0 {
		return nil, "--openapi: give the kinds to read from it with --builtin GROUP/VERSION/KIND"
	}
	var docs []*builtin.OpenAPI
	for _, path := range o.openapi {
		data, err := batch.ReadFile(path)
		if err != nil {
			return nil, fmt.Sprintf("--openapi: %v", err)
		}
		doc, err := builtin.ReadOpenAPI(path, data)
		if err != nil {
			return nil, fmt.Sprintf("--openapi: %v", err)
		}
		docs = append(docs, doc)
	}
	used := map[*builtin.OpenAPI]bool{}
	var out []builtin.Resource
	for _, s := range o.builtins {
		gvk, err := builtin.ParseKind(s)
		if err != nil {
			return nil, fmt.Sprintf("--builtin: %v", err)
		}
		var holders []*builtin.OpenAPI
		var names []string
		for _, doc := range docs {
			for _, k := range doc.Kinds() {
				if k == gvk {
					holders, names = append(holders, doc), append(names, doc.Name)
					break
				}
			}
		}
		switch len(holders) {
		case 0:
			return nil, fmt.Sprintf("--builtin: %q: no schema of %s is of kind %s", s, strings.Join(o.openapi, ", "), gvk)
		case 1:
		default:
			return nil, fmt.Sprintf("--builtin: %q: several documents have a schema of kind %s: %s", s, gvk, strings.Join(names, ", "))
		}
		r, err := holders[0].Resource(gvk)
		if err != nil {
			return nil, fmt.Sprintf("--builtin: %q: %v", s, err)
		}
		used[holders[0]] = true
		out = append(out, r)
	}
	for _, doc := range docs {
		if !used[doc] {
			return nil, fmt.Sprintf("--openapi: %s has none of the --builtin kinds", doc.Name)
		}
	}
	return out, ""
}
