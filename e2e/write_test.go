package e2e

import (
	"context"
	"encoding/json"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// method is how a client sends an update.
type method int

const (
	update     method = iota // PUT of the whole object
	mergePatch               // JSON merge patch (RFC 7386)
	apply                    // server-side apply
)

var methods = []method{update, mergePatch, apply}

func (m method) String() string { return [...]string{"update", "merge-patch", "apply"}[m] }

// fieldManager owns every field the tests write, whatever the method, so
// that server-side apply removes what a later configuration leaves out.
const fieldManager = "mut2cel-e2e"

// object turns an intent into a request body for object name: the
// apiVersion, kind and metadata are the kind's, whatever the intent holds.
func (k *kind) object(name string, intent map[string]interface{}) *unstructured.Unstructured {
	obj := runtime.DeepCopyJSON(intent)
	obj["apiVersion"] = k.apiVersion
	obj["kind"] = k.kind
	meta := map[string]interface{}{"name": name}
	if k.namespace != "" {
		meta["namespace"] = k.namespace
	}
	obj["metadata"] = meta
	return &unstructured.Unstructured{Object: obj}
}

// create creates object name from intent; with apply through server-side
// apply, as a client that only applies does.
func (k *kind) create(ctx context.Context, c *cluster, m method, name string, intent map[string]interface{}) (*unstructured.Unstructured, error) {
	obj := k.object(name, intent)
	if m == apply {
		return k.client(c).Apply(ctx, name, obj, metav1.ApplyOptions{FieldManager: fieldManager, Force: true})
	}
	return k.client(c).Create(ctx, obj, metav1.CreateOptions{FieldManager: fieldManager})
}

// write sends intent with method m as an update of the object the server
// holds as cur, to the resource (sub "") or to its status subresource.
func (k *kind) write(ctx context.Context, c *cluster, m method, sub string, cur *unstructured.Unstructured, intent map[string]interface{}, dryRun bool) (*unstructured.Unstructured, error) {
	name := cur.GetName()
	var subs, dry []string
	if sub != "" {
		subs = []string{sub}
	}
	if dryRun {
		dry = []string{metav1.DryRunAll}
	}
	switch m {
	case update:
		obj := k.object(name, intent)
		obj.SetResourceVersion(cur.GetResourceVersion())
		return k.client(c).Update(ctx, obj, metav1.UpdateOptions{FieldManager: fieldManager, DryRun: dry}, subs...)
	case mergePatch:
		patch, err := k.mergePatch(cur, intent)
		if err != nil {
			return nil, err
		}
		return k.client(c).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: fieldManager, DryRun: dry}, subs...)
	default:
		opts := metav1.ApplyOptions{FieldManager: fieldManager, Force: true, DryRun: dry}
		return k.client(c).Apply(ctx, name, k.object(name, intent), opts, subs...)
	}
}

// mergePatch is the patch a client computes to turn cur into intent,
// leaving metadata alone.
func (k *kind) mergePatch(cur *unstructured.Unstructured, intent map[string]interface{}) ([]byte, error) {
	from, err := json.Marshal(withoutMetadata(cur.Object))
	if err != nil {
		return nil, err
	}
	to, err := json.Marshal(withoutMetadata(k.object(cur.GetName(), intent).Object))
	if err != nil {
		return nil, err
	}
	return jsonpatch.CreateMergePatch(from, to)
}

// withoutMetadata is a deep copy of obj without metadata, which the
// declarations may not constrain and the server rewrites on every write.
func withoutMetadata(obj map[string]interface{}) map[string]interface{} {
	out := runtime.DeepCopyJSON(obj)
	delete(out, "metadata")
	return out
}
