package crd

import "strings"

// Names are the names of a CRD a document is written for.
type Names struct {
	Name, Group, Kind, Plural, Scope string
}

// NewVersion is one version of a CRD document to write.
type NewVersion struct {
	Name            string
	Served, Storage bool
	// Schema is the version's openAPIV3Schema.
	Schema map[string]interface{}
	// StatusSubresource serves the status subresource.
	StatusSubresource bool
}

// NewDocument writes a CustomResourceDefinition document
// (apiextensions.k8s.io/v1) with the names and versions given: the one
// place besides the model's readers that spells the document's layout,
// for front ends that carry a schema from elsewhere to the compiler.
func NewDocument(n Names, versions ...NewVersion) map[string]interface{} {
	vs := make([]interface{}, len(versions))
	for i, v := range versions {
		entry := map[string]interface{}{
			"name": v.Name, "served": v.Served, "storage": v.Storage,
			"schema": map[string]interface{}{RootName: v.Schema},
		}
		if v.StatusSubresource {
			entry["subresources"] = map[string]interface{}{"status": map[string]interface{}{}}
		}
		vs[i] = entry
	}
	return map[string]interface{}{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]interface{}{"name": n.Name},
		"spec": map[string]interface{}{
			"group": n.Group,
			"names": map[string]interface{}{
				"kind": n.Kind, "listKind": n.Kind + "List", "plural": n.Plural, "singular": strings.ToLower(n.Kind),
			},
			"scope":    n.Scope,
			"versions": vs,
		},
	}
}
