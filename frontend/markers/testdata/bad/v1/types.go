// Package v1 holds markers the reader must refuse, each at its line.
// +groupName=markers.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Gadget is the kind under test.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GadgetSpec `json:"spec"`
}

// GadgetSpec holds the bad markers.
type GadgetSpec struct {
	// +immutable=Sometimes
	A string `json:"a"`

	// +k8s:update=NoSet,NoModify
	B string `json:"b"`

	// +k8s:update=Never
	C string `json:"c"`

	// +k8s:immutable=true
	D string `json:"d"`

	// +k8s:eachVal=+k8s:update=NoSet
	E []string `json:"e"`

	// +k8s:item(name: "x")=+k8s:immutable
	F []Item `json:"f"`

	// +immutable-keys=Never
	G map[string]string `json:"g"`
}

// Item is an entry of F.
type Item struct {
	Name string `json:"name"`
}
