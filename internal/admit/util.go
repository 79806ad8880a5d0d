package admit

import (
	"errors"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func metavOf(r schema.GroupVersionResource) metav1.GroupVersionResource {
	return metav1.GroupVersionResource(r)
}

func metavKind(k schema.GroupVersionKind) metav1.GroupVersionKind {
	return metav1.GroupVersionKind(k)
}

func deepCopy(m map[string]interface{}) map[string]interface{} {
	return runtime.DeepCopyJSON(m)
}

func joinErrors(errs []error) error { return errors.Join(errs...) }
