// Package v1 is the API of testdata/api with markers translate refuses:
// placed where they cannot apply, or on a field the CRD generated from
// testdata/api lacks (as when the CRD is older than the Go types).
// +groupName=markers.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Widget is the kind of testdata/api.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec"`
}

// WidgetSpec misplaces its markers.
type WidgetSpec struct {
	// A string has no keys.
	// +immutable-keys
	Class string `json:"class"`

	// AddOnly on a list speaks of its keys: +immutable-keys=AddOnly.
	// +immutable=AddOnly
	Sizes []int32 `json:"sizes,omitempty"`

	// A string has no items to add; and Sometimes is no value (reported
	// in the same run as the misplaced markers).
	// +k8s:update=NoAddItem
	// +immutable=Sometimes
	Zone string `json:"zone,omitempty"`

	// Color is newer than the CRD.
	// +immutable
	Color string `json:"color,omitempty"`
}
