package main

import (
	"fmt"
	"strings"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/frontend/builtin"
)

// builtinResources reads --builtin, from the --openapi documents when
// given; an unknown kind is a usage error, a document that cannot be read
// fails the run.
func (o *policyOptions) builtinResources() ([]builtin.Resource, string, []batch.Diagnostic) {
	if len(o.openapi) > 0 {
		return o.openAPIResources()
	}
	var out []builtin.Resource
	for _, s := range o.builtins {
		r, err := builtin.ParseResource(s)
		if err != nil {
			return nil, fmt.Sprintf("--builtin: %v", err), nil
		}
		out = append(out, r)
	}
	return out, "", nil
}

// openAPIResources reads the --openapi documents and finds each --builtin
// kind in exactly one of them; a document that serves none is a usage
// error too, as a flag that does nothing would pass for one that does.
// A document that cannot be read or parsed, or passes a limit, is the
// input's fault, not the invocation's: it fails the run without usage.
func (o *policyOptions) openAPIResources() ([]builtin.Resource, string, []batch.Diagnostic) {
	if len(o.builtins) == 0 {
		return nil, "--openapi: give the kinds to read from it with --builtin GROUP/VERSION/KIND", nil
	}
	var docs []*builtin.OpenAPI
	var bad []batch.Diagnostic
	for _, path := range o.openapi {
		data, err := batch.ReadFile(path)
		if err == nil {
			var doc *builtin.OpenAPI
			if doc, err = builtin.ReadOpenAPI(path, data); err == nil {
				docs = append(docs, doc)
				continue
			}
		}
		bad = append(bad, batch.Diagnostic{Detail: fmt.Sprintf("--openapi: %v", err)})
	}
	if len(bad) > 0 {
		return nil, "", bad
	}
	used := map[*builtin.OpenAPI]bool{}
	var out []builtin.Resource
	for _, s := range o.builtins {
		gvk, err := builtin.ParseKind(s)
		if err != nil {
			return nil, fmt.Sprintf("--builtin: %v", err), nil
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
			return nil, fmt.Sprintf("--builtin: %q: no schema of %s is of kind %s", s, strings.Join(o.openapi, ", "), gvk), nil
		case 1:
		default:
			return nil, fmt.Sprintf("--builtin: %q: several documents have a schema of kind %s: %s", s, gvk, strings.Join(names, ", ")), nil
		}
		r, err := holders[0].Resource(gvk)
		if err != nil {
			return nil, fmt.Sprintf("--builtin: %q: %v", s, err), nil
		}
		used[holders[0]] = true
		out = append(out, r)
	}
	for _, doc := range docs {
		if !used[doc] {
			return nil, fmt.Sprintf("--openapi: %s has none of the --builtin kinds", doc.Name), nil
		}
	}
	return out, "", nil
}
