package e2e

import (
	"encoding/json"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mut2cel/mut2cel/internal/kube"
)

// predict returns the object, without metadata, that the server stores when
// it accepts update or merge patch m of intent, sent to sub, while it holds
// cur. It follows the request path of a custom resource: the body (or the
// patched object) is pruned and defaulted as it is decoded, then the status
// subresource strategy keeps what the request may not change.
func (k *kind) predict(m method, sub string, cur *unstructured.Unstructured, intent map[string]interface{}) (map[string]interface{}, error) {
	sent := k.object(cur.GetName(), intent).Object
	if m == mergePatch {
		patch, err := k.mergePatch(cur, intent)
		if err != nil {
			return nil, err
		}
		if sent, err = applyMergePatch(cur.Object, patch); err != nil {
			return nil, err
		}
	}
	stored := withoutMetadata(kube.Store(k.s, sent))
	before := withoutMetadata(cur.Object)
	switch {
	case sub == "status":
		// The status strategy keeps everything of the old object but status.
		stored = withField(before, "status", stored)
	case k.status:
		// With a status subresource, updates of the resource keep status.
		stored = withField(stored, "status", before)
	}
	return kube.RoundTrip(stored)
}

// applyMergePatch applies patch to obj with the JSON merge patch library the
// apiserver's patch handler uses.
func applyMergePatch(obj map[string]interface{}, patch []byte) (map[string]interface{}, error) {
	doc, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	merged, err := jsonpatch.MergePatch(doc, patch)
	if err != nil {
		return nil, err
	}
	var out map[string]interface{}
	return out, json.Unmarshal(merged, &out)
}

// withField returns obj with key set as in from, or removed when from lacks it.
func withField(obj map[string]interface{}, key string, from map[string]interface{}) map[string]interface{} {
	if v, ok := from[key]; ok {
		obj[key] = v
	} else {
		delete(obj, key)
	}
	return obj
}
