package reference

import "github.com/mut2cel/mut2cel/crd"

// DeclaringVersions lists, in the document's order, the versions of a
// decoded CRD document whose schema carries a declaration, valid or not,
// as NewChecker reads them.
func DeclaringVersions(doc map[string]interface{}) []string {
	c, err := crd.Read(doc)
	if err != nil {
		return nil
	}
	var out []string
	for _, v := range c.Versions {
		if v.Raw == nil {
			continue
		}
		checker, err := NewChecker(v.Raw)
		if err != nil || len(checker.DeclaredPaths()) > 0 {
			out = append(out, v.Name)
		}
	}
	return out
}
