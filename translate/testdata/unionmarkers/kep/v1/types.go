// Package v1 declares TestUnionFrontEnds's second union with the KEP's
// markers and controller-gen's.
// +groupName=example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Widget is the kind of the test's CRD.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec"`
}

// WidgetSpec: a, b at most one, selected by type (the KEP's inlined
// union); c, d exactly one (controller-gen's).
// +kubebuilder:validation:ExactlyOneOf=d;c
type WidgetSpec struct {
	// +unionDiscriminator
	// +optional
	Type string `json:"type,omitempty"`
	// +unionDeprecated
	// +optional
	A *string `json:"a,omitempty"`
	// +unionDeprecated
	// +optional
	B *Thing `json:"b,omitempty"`
	// +optional
	C *int64 `json:"c,omitempty"`
	// +optional
	D *bool `json:"d,omitempty"`
}

// Thing is an object member.
type Thing struct {
	// +optional
	Name string `json:"name,omitempty"`
}
