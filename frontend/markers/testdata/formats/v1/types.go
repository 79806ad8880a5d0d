// Package v1 declares with the modifier that compares formatted strings
// as values, on a field and on a type.
// +groupName=markers.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Request is the kind under test.
type Request struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec RequestSpec `json:"spec"`
}

// RequestSpec is immutable, its CSR compared as the bytes it encodes.
// +immutable
// +mut2cel:formats=CompareAsValues
type RequestSpec struct {
	// +kubebuilder:validation:Format=byte
	Request string `json:"request"`

	// +k8s:update=NoModify
	// +mut2cel:formats=CompareAsValues
	// +kubebuilder:validation:Format=date-time
	// +optional
	Since string `json:"since,omitempty"`
}
