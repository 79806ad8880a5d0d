package crd

import (
	"errors"
)

// CRD is what a CRD document says about itself.
type CRD struct {
	APIVersion string // apiVersion, which translate requires to be v1
	Name       string // metadata.name
	Group      string // spec.group
	Kind       string // spec.names.kind
	Plural     string // spec.names.plural
	Scope      string // spec.scope
	Conversion string // spec.conversion.strategy, "" when absent
	// Annotations is metadata.annotations, nil when absent.
	Annotations map[string]interface{}
	// Own is what mut2cel keeps in the annotations: the declarations
	// annotation and the record of generated rules, as read.
	Own Own
	// Versions are the entries of spec.versions in the document's order.
	Versions []*Version

	doc map[string]interface{}
}

// Read reads a decoded CRD document into its model.
func Read(doc map[string]interface{}) (*CRD, error) {
	if doc == nil {
		return nil, errors.New("no CRD document")
	}
	meta, _ := doc["metadata"].(map[string]interface{})
	spec, _ := doc["spec"].(map[string]interface{})
	names, _ := spec["names"].(map[string]interface{})
	conversion, _ := spec["conversion"].(map[string]interface{})
	c := &CRD{doc: doc}
	c.APIVersion, _ = doc["apiVersion"].(string)
	c.Name, _ = meta["name"].(string)
	c.Annotations, _ = meta["annotations"].(map[string]interface{})
	c.Group, _ = spec["group"].(string)
	c.Kind, _ = names["kind"].(string)
	c.Plural, _ = names["plural"].(string)
	c.Scope, _ = spec["scope"].(string)
	c.Conversion, _ = conversion["strategy"].(string)
	c.Own = readOwn(c.Annotations)
	list, _ := spec["versions"].([]interface{})
	for i, e := range list {
		c.Versions = append(c.Versions, readVersion(i, e))
	}
	return c, nil
}

// Webhook reports whether a conversion webhook converts between the
// versions, so that they may store one object differently.
func (c *CRD) Webhook() bool { return c.Conversion == "Webhook" }

// Document is the document c was read from.
func (c *CRD) Document() map[string]interface{} { return c.doc }

// First reports whether v is the first version of its name: the one
// Version returns; readers report the others as duplicates.
func (c *CRD) First(v *Version) bool {
	w, ok := c.Version(v.Name)
	return ok && w.Index == v.Index
}

// VersionNames are the names of the versions, the first of each name
// only, in spec.versions order.
func (c *CRD) VersionNames() []string {
	var names []string
	for _, v := range c.Versions {
		if c.First(v) {
			names = append(names, v.Name)
		}
	}
	return names
}

// Version returns the first version named name.
func (c *CRD) Version(name string) (*Version, bool) {
	for _, v := range c.Versions {
		if v.Name == name {
			return v, true
		}
	}
	return nil, false
}

// AnnotationsPath is the document path of metadata.annotations.
func AnnotationsPath() []interface{} { return []interface{}{"metadata", "annotations"} }

// VersionsPath is the document path of spec.versions.
func VersionsPath() []interface{} { return []interface{}{"spec", "versions"} }
