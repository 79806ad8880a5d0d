// Package v1 is the older of two versions of one kind.
// +groupName=versions.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Gizmo is served in v1 and v2.
type Gizmo struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GizmoSpec `json:"spec"`
}

// GizmoSpec of v1.
type GizmoSpec struct {
	// +immutable
	Class string `json:"class"`
}
