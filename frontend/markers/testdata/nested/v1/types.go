// Package v1 is a package of the module, next to a nested module that
// "./nested/..." must not reach, as go list does not.
// +groupName=nested.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Nest is the kind under test.
type Nest struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec NestSpec `json:"spec"`
}

// NestSpec has one marked field.
type NestSpec struct {
	// +immutable
	Class string `json:"class"`
}
