package cluster

import (
	"fmt"

	"github.com/mut2cel/mut2cel/crd"
)

// The fields of metadata the server writes, set aside in Stored or left
// out (managedFields: who changed what, and when).
var serverMetadata = []string{
	"managedFields", "resourceVersion", "uid", "generation", "creationTimestamp",
	"deletionTimestamp", "deletionGracePeriodSeconds", "selfLink",
}

// lastApplied is the annotation kubectl apply keeps the last manifest it
// applied in: a copy of the manifest, not part of it.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// crd sets aside, in place, what the server keeps beside the definition
// of a CRD it answered with.
func (r *Reader) split(doc map[string]interface{}) ServedCRD {
	name, _ := nameAndGroup(doc)
	c := ServedCRD{Name: name, Origin: fmt.Sprintf("cluster %s: customresourcedefinitions/%s", r.Cluster, name), Document: doc}
	// The items of a list have no apiVersion and kind: the list says them.
	doc["apiVersion"] = "apiextensions.k8s.io/v1"
	doc["kind"] = "CustomResourceDefinition"
	c.Stored.Status, _ = doc["status"].(map[string]interface{})
	delete(doc, "status")
	meta, _ := doc["metadata"].(map[string]interface{})
	if meta == nil {
		return c
	}
	c.Stored.ResourceVersion, _ = meta["resourceVersion"].(string)
	c.Stored.UID, _ = meta["uid"].(string)
	c.Stored.Generation, _ = meta["generation"].(int64)
	c.Stored.CreationTimestamp, _ = meta["creationTimestamp"].(string)
	c.Stored.DeletionTimestamp, _ = meta["deletionTimestamp"].(string)
	for _, k := range serverMetadata {
		delete(meta, k)
	}
	if annotations, ok := meta["annotations"].(map[string]interface{}); ok {
		c.Stored.LastApplied, _ = annotations[lastApplied].(string)
		delete(annotations, lastApplied)
		if len(annotations) == 0 {
			delete(meta, "annotations")
		}
	}
	return c
}

// nameAndGroup reads metadata.name and spec.group of a CRD document
// through the model, the one reader of CRD documents.
func nameAndGroup(doc map[string]interface{}) (name, group string) {
	c, err := crd.Read(doc)
	if err != nil {
		return "", ""
	}
	return c.Name, c.Group
}
