package verify

import (
	"fmt"
	"maps"
	"reflect"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
	"github.com/mut2cel/mut2cel/verify/internal/storage"
)

// storedPair returns copies of a raw pair as the apiserver sees it: the
// old object as it reads it back from storage, through the storage
// pipeline, then written as JSON and read back, and the new one as it
// arrives, through the pipeline (storeOld, storeNewOf).
func (r *versionRun) storedPair(old, new map[string]interface{}) (storedOld, storedNew map[string]interface{}, err error) {
	so, err := r.storeOld(old)
	if err != nil {
		return nil, nil, err
	}
	return so.read, r.storeNewOf(so, old, new), nil
}

// oldStored is the old object of a pair as the apiserver stores it and
// reads it back, and, once validated (versionRun.validateOld), what the
// apiserver makes of it on create. The mending of a refused new object
// leaves the old one as it was, and with it this.
type oldStored struct {
	// pipelined is the old object through the storage pipeline, which
	// storeNew stores the new object from; read is pipelined as the
	// apiserver reads it back, with the resource's apiVersion, kind and
	// metadata. They may share values below the root, which nothing
	// changes.
	pipelined, read map[string]interface{}
	validated       bool
	// refusal is why the apiserver refuses to create it, nil when it
	// accepts it; cost is then what its rules cost (validity.Object).
	refusal *Refusal
	cost    int64
}

// storeOld stores a raw old object. Where the JSON round trip cannot
// change it (jsonStable), it is skipped: on a large schema it costs a
// sixth of a pair.
func (r *versionRun) storeOld(old map[string]interface{}) (*oldStored, error) {
	so := &oldStored{pipelined: r.store.Store(jsonvalue.CopyMap(old))}
	if storeCheck != nil {
		storeCheck(r.s, old, so.pipelined)
	}
	if jsonStable(so.pipelined) {
		so.read = maps.Clone(so.pipelined)
	} else {
		var err error
		if so.read, err = kube.RoundTrip(so.pipelined); err != nil {
			return nil, err
		}
	}
	r.meta.set(so.read)
	return so, nil
}

// storeNewOf stores the raw new object of a pair whose raw old object,
// old, is stored as so: from the old one's stored form (storeNew), before
// the round trip, which would turn the floats storeNew copies from it
// into integers; then it gets the resource's apiVersion, kind and
// metadata (resourceMeta), as every object the apiserver validates has
// them.
func (r *versionRun) storeNewOf(so *oldStored, old, new map[string]interface{}) map[string]interface{} {
	storedNew := storeNew(r.store, old, so.pipelined, new)
	r.meta.set(storedNew)
	return storedNew
}

// storeNew returns kube.Store(s, new) for the new object of a pair, given
// storedOld, kube.Store(s, old) of its old object, and leaves its arguments
// as they are.
//
// The storage pipeline (pruning, dropping nulls, defaulting) makes of a
// value below the root what that value and its schema alone decide, so
// where new equals old the stored form is storedOld's, copied. Where they
// differ, what changed goes through the pipeline again: in an object of
// its own where the pipeline acts on the object holding it (storedObject),
// item by item in a list (storedList). A difference in apiVersion, kind or
// metadata, which the pipeline treats apart, stores the whole object. A
// new object differs from its old one in one to three places, and on large
// schemas this spares most of the pipeline's walk; storeCheck, set by the
// tests, compares every result with the whole pipeline's.
func storeNew(s *storage.Node, old, storedOld, new map[string]interface{}) map[string]interface{} {
	out, ok := storedObject(s, old, storedOld, new, true)
	if !ok {
		out = s.Store(jsonvalue.CopyMap(new))
	}
	if storeCheck != nil {
		storeCheck(s.S, new, out)
	}
	return out
}

// storeCheck, when set, is called with every result of storeNew, and of
// the compiled pipeline on an old object (storeOld).
var storeCheck func(s *schema.Structural, new, stored map[string]interface{})

// CheckStoredObjects makes every later run hold each object it stores
// apart from the apiserver's storage pipeline (the compiled pipeline of
// an old object, storeNew of a new one) to what the pipeline makes of
// it, and panic where they differ; and, as CheckValidity, each reason it
// finds to refuse an object to the apiserver's validation. It is for
// tests, which call it in TestMain: this package's, and those of the
// packages whose tests run Verify (driver/verifyrun's policy tests), so
// that every pair of every such test checks both shortcuts. It runs the
// pipeline and the validation once more per object.
func CheckStoredObjects() {
	storeCheck = mustStoreAsPipeline
	CheckValidity()
}

func mustStoreAsPipeline(s *schema.Structural, raw, stored map[string]interface{}) {
	if want := kube.Store(s, jsonvalue.CopyMap(raw)); !reflect.DeepEqual(stored, want) {
		panic(fmt.Sprintf("verify stores an object otherwise than the storage pipeline\nobject:   %s\nverify:   %s\npipeline: %s",
			jsonvalue.Canonical(raw), jsonvalue.Canonical(stored), jsonvalue.Canonical(want)))
	}
}

// storedValue returns the stored form of nv, given ov, of the same place in
// the old object, and sv, its stored form. Both ov and nv are present and
// not null.
func storedValue(s *storage.Node, ov, sv, nv interface{}) interface{} {
	switch n := nv.(type) {
	case map[string]interface{}:
		o, oOK := ov.(map[string]interface{})
		st, sOK := sv.(map[string]interface{})
		if oOK && sOK {
			if out, ok := storedObject(s, o, st, n, false); ok {
				return out
			}
		}
	case []interface{}:
		o, oOK := ov.([]interface{})
		st, sOK := sv.([]interface{})
		if oOK && sOK && s.Items() != nil && len(st) == len(o) {
			if out, ok := storedList(s.Items(), o, st, n); ok {
				return out
			}
		}
	}
	return s.StoreValue(jsonvalue.Copy(nv))
}

// storedObject is storedValue for an object; false when the difference
// lies in keys the pipeline treats apart (apiVersion, kind and metadata of
// the root or an embedded resource), and the object must be stored again.
//
// What the pipeline does at an object it does key by key: it prunes an
// unknown key, drops a null, fills in a default where a key is absent. So
// the keys whose fate the object decides (added, removed, null on one side,
// or without a schema of their own) go through the pipeline in an object
// of their own, and the rest are taken from the old object's stored form
// or, where their value changed, stored one level down.
func storedObject(s *storage.Node, old, stored, new map[string]interface{}, root bool) (map[string]interface{}, bool) {
	out := make(map[string]interface{}, len(stored))
	apart := root || s.S.XEmbeddedResource
	var loose map[string]interface{}
	shared := 0
	for k, nv := range new {
		ov, inOld := old[k]
		if inOld {
			shared++
		}
		if inOld && sameJSON(ov, nv) {
			if sv, ok := stored[k]; ok {
				out[k] = jsonvalue.Copy(sv)
			}
			continue
		}
		if apart && (k == "apiVersion" || k == "kind" || k == "metadata") {
			return nil, false
		}
		sv, kept := stored[k]
		ks := s.Property(k)
		if !inOld || ov == nil || nv == nil || !kept || ks == nil {
			if loose == nil {
				loose = map[string]interface{}{}
			}
			loose[k] = jsonvalue.Copy(nv)
			continue
		}
		out[k] = storedValue(ks, ov, sv, nv)
	}
	if loose == nil && shared == len(old) {
		// The keys absent from new are those absent from old, whose
		// defaults stored holds.
		for k, sv := range stored {
			if _, inNew := new[k]; !inNew {
				out[k] = jsonvalue.Copy(sv)
			}
		}
		return out, true
	}
	if apart && dropsTypeOrMeta(old, new) {
		return nil, false
	}
	if loose == nil {
		loose = map[string]interface{}{}
	}
	if !storeLoose(s, loose, new, out) {
		return nil, false
	}
	return out, true
}

// dropsTypeOrMeta reports whether new lacks the apiVersion, kind or
// metadata old has, which the pipeline treats apart.
func dropsTypeOrMeta(old, new map[string]interface{}) bool {
	for _, k := range []string{"apiVersion", "kind", "metadata"} {
		if _, inNew := new[k]; !inNew {
			if _, inOld := old[k]; inOld {
				return true
			}
		}
	}
	return false
}

// storeLoose stores loose, the keys of new whose fate the object decides,
// in an object of their own, and puts into out what the pipeline makes of
// them and the defaults it adds where new has no key; false when it makes
// no object of them.
func storeLoose(s *storage.Node, loose, new, out map[string]interface{}) bool {
	decided, ok := s.StoreValue(maps.Clone(loose)).(map[string]interface{}) // the pipeline adds defaults to the map it is given
	if !ok {
		return false
	}
	for k, v := range decided {
		if _, inNew := new[k]; !inNew {
			out[k] = v // a default
		} else if _, isLoose := loose[k]; isLoose {
			out[k] = v
		}
	}
	return true
}

// storedList is storedValue for a list whose old form's stored form kept
// every item. The pipeline stores a list item by item, so an item equal to
// an old one, where it stands or (after an insertion, a removal or a
// reordering) elsewhere, is that one's stored form; any other is stored
// from the old item at its index, or alone. A null item, which defaulting
// may replace, stores the list again.
func storedList(items *storage.Node, old, stored, new []interface{}) ([]interface{}, bool) {
	out := make([]interface{}, len(new))
	for i, nv := range new {
		if nv == nil {
			return nil, false
		}
		if j := sameItem(old, i, nv); j >= 0 {
			out[i] = jsonvalue.Copy(stored[j])
		} else if i < len(old) && old[i] != nil {
			out[i] = storedValue(items, old[i], stored[i], nv)
		} else {
			out[i] = items.StoreValue(jsonvalue.Copy(nv))
		}
	}
	return out, true
}

// sameItem returns the index of an item of old equal to v, looking at
// index i first; -1 if there is none.
func sameItem(old []interface{}, i int, v interface{}) int {
	if i < len(old) && sameJSON(old[i], v) {
		return i
	}
	for j, o := range old {
		if j != i && sameJSON(o, v) {
			return j
		}
	}
	return -1
}

// sameJSON reports whether two JSON values are equal, numbers of different
// Go types being different.
func sameJSON(a, b interface{}) bool {
	switch x := a.(type) {
	case map[string]interface{}:
		y, ok := b.(map[string]interface{})
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !sameJSON(e, f) {
				return false
			}
		}
		return true
	case []interface{}:
		y, ok := b.([]interface{})
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case string, bool, int64, float64, nil:
		return a == b
	}
	return false // another Go type: never taken as equal
}
