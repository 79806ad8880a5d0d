// Package v2 is the newer of two versions of one kind.
// +groupName=versions.example.com
package v2

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Gizmo is served in v1 and v2, and stored as v2.
// +kubebuilder:storageversion
type Gizmo struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GizmoSpec `json:"spec"`
}

// GizmoSpec of v2 has a field v1 lacks.
type GizmoSpec struct {
	// +immutable
	Class string `json:"class"`

	// +k8s:update=NoModify
	Size int32 `json:"size,omitempty"`
}
