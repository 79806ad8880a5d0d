package auditrun

import (
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/mut2cel/mut2cel/driver/verifyrun"
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
	dv, tv := versionList(declared), versionList(tested)
	if len(dv) != len(tv) {
		return out
	}
	for i := range tv {
		if !served(tv[i]) || !served(dv[i]) {
			continue
		}
		for j := 0; j < i; j++ {
			if _, dup := out[name(tv[j])]; dup || !served(tv[j]) || name(tv[j]) != name(dv[j]) || name(tv[i]) != name(dv[i]) {
				continue
			}
			if reflect.DeepEqual(tv[i]["schema"], tv[j]["schema"]) && reflect.DeepEqual(dv[i]["schema"], dv[j]["schema"]) {
				out[name(tv[i])] = name(tv[j])
				break
			}
		}
	}
	return out
}

// withoutServing is a copy of doc whose versions in names are not
// served, which the verifier then does not check.
func withoutServing(doc map[string]interface{}, names map[string]string) map[string]interface{} {
	if len(names) == 0 {
		return doc
	}
	out := runtime.DeepCopyJSON(doc)
	for _, v := range versionList(out) {
		if _, ok := names[name(v)]; ok {
			v["served"] = false
		}
	}
	return out
}

// copyVersions adds to r, for each version like another, that version's
// result under its own name, in the order of the CRD's versions.
func copyVersions(r *verifyrun.CRDResult, like map[string]string, order []string) {
	if len(like) == 0 {
		return
	}
	byName := map[string]verifyrun.VersionResult{}
	for _, v := range r.Versions {
		byName[v.Version] = v
	}
	var out []verifyrun.VersionResult
	for _, n := range order {
		v, ok := byName[n]
		if first, dup := like[n]; dup {
			v, ok = byName[first]
			v.Version = n
		}
		if ok {
			out = append(out, v)
		}
	}
	r.Versions = out
}

func versionList(doc map[string]interface{}) []map[string]interface{} {
	spec, _ := doc["spec"].(map[string]interface{})
	list, _ := spec["versions"].([]interface{})
	var out []map[string]interface{}
	for _, e := range list {
		if m, ok := e.(map[string]interface{}); ok {
			out = append(out, m)
		}
	}
	return out
}

func name(v map[string]interface{}) string { s, _ := v["name"].(string); return s }
func served(v map[string]interface{}) bool { b, _ := v["served"].(bool); return b }

// versionNames are the names of doc's versions, in order.
func versionNames(doc map[string]interface{}) []string {
	var out []string
	for _, v := range versionList(doc) {
		out = append(out, name(v))
	}
	return out
}
