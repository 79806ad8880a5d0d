package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mut2cel/mut2cel/frontend/markers/testdata/shared"
)

// Widget is the kind under test.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec"`
}

// WidgetSpec has a field for each way Go reaches a schema path.
type WidgetSpec struct {
	// +immutable
	Class string `json:"class"`

	// +immutable=AddOnly
	// +optional
	Owner *string `json:"owner,omitempty"`

	// +k8s:immutable
	// +optional
	Zone string `json:"zone,omitempty"`

	// +k8s:update=NoUnset
	// +k8s:update=NoModify # set once
	Region string `json:"region,omitempty"`

	// +immutable-keys
	// +k8s:eachVal=+k8s:update=NoModify
	Labels map[string]string `json:"labels,omitempty"`

	// +immutable-keys=AddOnly
	// +listType=map
	// +listMapKey=name
	Ports []Port `json:"ports,omitempty"`

	// +k8s:eachVal=+k8s:immutable
	// +k8s:eachVal=+k8s:minimum=1
	Sizes []int32 `json:"sizes,omitempty"`

	Embedded `json:",inline"`

	Ref Reference `json:"ref,omitempty"`

	// Aliased is a type alias, which reaches its target's schema.
	Aliased AliasedName `json:"aliased,omitempty"`

	// Quota's type is in a package not loaded as a root.
	Quota shared.Quota `json:"quota,omitempty"`
}

// Port is an entry of a list-map.
type Port struct {
	Name string `json:"name"`
	// +k8s:immutable
	Number int32 `json:"number"`
}

// Embedded is inlined into WidgetSpec.
type Embedded struct {
	// +immutable
	Inlined string `json:"inlined,omitempty"`
}

// Reference is marked on the type: every field of this type is
// immutable.
// +immutable
type Reference struct {
	Name string `json:"name"`
}

// AliasedName names a string.
type AliasedName = Name

// Name is marked on the type.
// +k8s:update=NoModify
type Name string
