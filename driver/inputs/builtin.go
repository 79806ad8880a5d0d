package inputs

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/frontend/builtin"
)

// Builtins reads the built-in kinds of --builtin, from the --openapi
// documents when given, and returns them by the name of the CRD document
// that carries each to the compiler (builtin.Resource.VehicleName). An
// unknown kind is a usage error; a document that cannot be read fails the
// run.
func Builtins(kinds, openapi []string) (map[string]builtin.Resource, string, []batch.Diagnostic) {
	var list []builtin.Resource
	var usage string
	var diags []batch.Diagnostic
	if len(openapi) > 0 {
		list, usage, diags = openAPIResources(kinds, openapi)
	} else {
		list, usage = builtinResources(kinds)
	}
	if usage != "" || len(diags) > 0 {
		return nil, usage, diags
	}
	out := make(map[string]builtin.Resource, len(list))
	for _, r := range list {
		out[r.VehicleName()] = r
	}
	return out, "", nil
}

// builtinResources reads the kinds from the schema client-go ships.
func builtinResources(kinds []string) ([]builtin.Resource, string) {
	var out []builtin.Resource
	for _, s := range kinds {
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
// A document that cannot be read or parsed, or passes a limit, is the
// input's fault, not the invocation's: it fails the run without usage.
func openAPIResources(kinds, openapi []string) ([]builtin.Resource, string, []batch.Diagnostic) {
	if len(kinds) == 0 {
		return nil, "--openapi: give the kinds to read from it with --builtin GROUP/VERSION/KIND", nil
	}
	docs, bad := readOpenAPI(openapi)
	if len(bad) > 0 {
		return nil, "", bad
	}
	used := map[*builtin.OpenAPI]bool{}
	var out []builtin.Resource
	for _, s := range kinds {
		gvk, err := builtin.ParseKind(s)
		if err != nil {
			return nil, fmt.Sprintf("--builtin: %v", err), nil
		}
		holder, usage := holderOf(s, gvk, docs, openapi)
		if usage != "" {
			return nil, usage, nil
		}
		r, err := holder.Resource(gvk)
		if err != nil {
			return nil, fmt.Sprintf("--builtin: %q: %v", s, err), nil
		}
		used[holder] = true
		out = append(out, r)
	}
	for _, doc := range docs {
		if !used[doc] {
			return nil, fmt.Sprintf("--openapi: %s has none of the --builtin kinds", doc.Name), nil
		}
	}
	return out, "", nil
}

// readOpenAPI reads the documents at paths; each that cannot be read is a
// diagnostic.
func readOpenAPI(paths []string) ([]*builtin.OpenAPI, []batch.Diagnostic) {
	var docs []*builtin.OpenAPI
	var bad []batch.Diagnostic
	for _, path := range paths {
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
	return docs, bad
}

// holderOf returns the one document of docs that has a schema of kind
// gvk, given as s; none or several is a usage error.
func holderOf(s string, gvk schema.GroupVersionKind, docs []*builtin.OpenAPI, paths []string) (*builtin.OpenAPI, string) {
	var holders []*builtin.OpenAPI
	var names []string
	for _, doc := range docs {
		if slices.Contains(doc.Kinds(), gvk) {
			holders, names = append(holders, doc), append(names, doc.Name)
		}
	}
	switch len(holders) {
	case 0:
		return nil, fmt.Sprintf("--builtin: %q: no schema of %s is of kind %s", s, strings.Join(paths, ", "), gvk)
	case 1:
		return holders[0], ""
	default:
		return nil, fmt.Sprintf("--builtin: %q: several documents have a schema of kind %s: %s", s, gvk, strings.Join(names, ", "))
	}
}
