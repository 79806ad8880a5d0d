// Package v1 declares TestUnionFrontEnds's first union with
// validation-gen's tags.
// +groupName=example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Widget is the kind of the test's CRD.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec"`
}

// WidgetSpec: a, b exactly one, selected by type (values default to the
// Go field names); c, d at most one.
type WidgetSpec struct {
	// +k8s:unionDiscriminator
	// +optional
	Type string `json:"type,omitempty"`
	// +k8s:unionMember
	// +optional
	A *string `json:"a,omitempty"`
	// +k8s:unionMember
	// +optional
	B *Thing `json:"b,omitempty"`
	// +k8s:zeroOrOneOfMember
	// +optional
	C *int64 `json:"c,omitempty"`
	// +k8s:zeroOrOneOfMember
	// +optional
	D *bool `json:"d,omitempty"`
}

// Thing is an object member.
type Thing struct {
	// +optional
	Name string `json:"name,omitempty"`
}
