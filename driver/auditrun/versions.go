package auditrun

import (
	"reflect"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/driver/verifyrun"
	"github.com/mut2cel/mut2cel/edit"
)

// Versions alike. Many CRDs serve two or three versions with one schema
// (Gateway API's v1 and v1beta1): the verifier would check each on the
// same updates and find the same. A served version whose schema, and so
// rules, and whose declarations are those of an earlier served version
// is checked once, as that version, and reported with its findings.

// sameAs maps each served version that is like an earlier served version,
// in both documents, to that version.
func sameAs(declared, tested map[string]interface{}) map[string]string {
	out := map[string]string{}
	dc, derr := crd.Read(declared)
	tc, terr := crd.Read(tested)
	if derr != nil || terr != nil || len(dc.Versions) != len(tc.Versions) {
		return out
	}
	for i, tv := range tc.Versions {
		dv := dc.Versions[i]
		if !tv.Served || !dv.Served || tv.Name != dv.Name || !tc.First(tv) {
			continue
		}
		for j := range i {
			tw, dw := tc.Versions[j], dc.Versions[j]
			if _, dup := out[tw.Name]; dup || !tw.Served || tw.Name != dw.Name || !tc.First(tw) {
				continue
			}
			if reflect.DeepEqual(tv.Raw, tw.Raw) && reflect.DeepEqual(dv.Raw, dw.Raw) {
				out[tv.Name] = tw.Name
				break
			}
		}
	}
	return out
}

// withoutServing is a copy of doc whose versions in names are not
// served, which the verifier then does not check.
func withoutServing(doc map[string]interface{}, names map[string]string) map[string]interface{} {
	c, err := crd.Read(doc)
	if err != nil || len(names) == 0 {
		return doc
	}
	var edits []edit.Edit
	for _, v := range c.Versions {
		if _, ok := names[v.Name]; ok {
			edits = append(edits, edit.Edit{Path: append(crd.VersionsPath(), v.Index), Set: []edit.Setting{{Key: "served", Value: false}}})
		}
	}
	out, err := edit.Apply(doc, edits)
	if err != nil {
		return doc
	}
	return out
}

// copyVersions adds to r, for each version like another, that version's
// result under its own name, in the order of the CRD's versions.
func copyVersions(r *verifyrun.CRDResult, like map[string]string, doc map[string]interface{}) {
	c, err := crd.Read(doc)
	if err != nil || len(like) == 0 {
		return
	}
	byName := map[string]verifyrun.VersionResult{}
	for _, v := range r.Versions {
		byName[v.Version] = v
	}
	var out []verifyrun.VersionResult
	for _, name := range c.VersionNames() {
		v, ok := byName[name]
		if first, dup := like[name]; dup {
			v, ok = byName[first]
			v.Version = name
		}
		if ok {
			out = append(out, v)
		}
	}
	r.Versions = out
}
