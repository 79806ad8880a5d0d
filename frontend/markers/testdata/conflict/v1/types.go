// Package v1 declares two KEP values on one node.
// +groupName=markers.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Thing is the kind under test.
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec ThingSpec `json:"spec"`
}

// ThingSpec marks Ref, whose type is marked too.
type ThingSpec struct {
	// +immutable=AddOnly
	Ref Ref `json:"ref"`
}

// Ref is marked on the type.
// +immutable
type Ref struct {
	Name string `json:"name"`
}
