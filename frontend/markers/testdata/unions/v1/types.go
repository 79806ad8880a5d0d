// Package v1 declares unions with every union marker mut2cel reads.
// +groupName=markers.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Route is the kind under test.
type Route struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec RouteSpec `json:"spec"`
}

// RouteSpec holds a union of each kind.
type RouteSpec struct {
	Filters []Filter `json:"filters,omitempty"`
	Backend Backend  `json:"backend"`
	Source  Source   `json:"source"`
	Volume  Volume   `json:"volume"`
	Inlined Outer    `json:"inlined"`
	Storage Storage  `json:"storage"`
}

// Filter is validation-gen's union with a discriminator, in list items.
type Filter struct {
	// +k8s:unionDiscriminator
	Type string `json:"type"`
	// +k8s:unionMember(memberName: "Header")
	// +optional
	RequestHeaderModifier *string `json:"requestHeaderModifier,omitempty"`
	// +k8s:unionMember
	// +optional
	RequestRedirect *string `json:"requestRedirect,omitempty"`
}

// Backend has two named unions and one of at most one member.
type Backend struct {
	// +k8s:unionDiscriminator(union: "target")
	Kind string `json:"kind"`
	// +k8s:unionMember(union: "target", memberName: "Svc")
	// +optional
	Service *string `json:"service,omitempty"`
	// +k8s:unionMember(union: "target")
	// +optional
	Bucket *string `json:"bucket,omitempty"`
	// +k8s:unionMember(union: "auth")
	// +optional
	Token *string `json:"token,omitempty"`
	// +k8s:unionMember(union: "auth")
	// +optional
	Cert *string `json:"cert,omitempty"`
	// +k8s:zeroOrOneOfMember
	// +optional
	Zone *string `json:"zone,omitempty"`
	// +k8s:zeroOrOneOfMember
	// +optional
	Region *string `json:"region,omitempty"`
}

// Source is the KEP's +union with a discriminator.
// +union
type Source struct {
	// +unionDiscriminator
	// +optional
	SourceType string `json:"sourceType,omitempty"`
	// +optional
	Git *string `json:"git,omitempty"`
	// +optional
	HTTPURL *string `json:"httpURL,omitempty"`
}

// Volume is controller-gen's.
// +kubebuilder:validation:ExactlyOneOf=secret;configMap
// +kubebuilder:validation:AtMostOneOf=readOnly;readWrite
type Volume struct {
	// +optional
	Secret *string `json:"secret,omitempty"`
	// +optional
	ConfigMap *string `json:"configMap,omitempty"`
	// +optional
	ReadOnly *bool `json:"readOnly,omitempty"`
	// +optional
	ReadWrite *bool `json:"readWrite,omitempty"`
}

// Outer inlines a +union struct and has an inlined union of its own (the
// KEP's InlinedUnion).
type Outer struct {
	Name string `json:"name"`
	// +unionDeprecated
	// +optional
	Field1 *int32 `json:"field1,omitempty"`
	// +unionDeprecated
	// +optional
	Field2 *int32 `json:"field2,omitempty"`

	Inner `json:",inline"`
}

// Inner is a union without a discriminator.
// +union
type Inner struct {
	// +optional
	Alpha *int32 `json:"alpha,omitempty"`
	// +optional
	Beta *int32 `json:"beta,omitempty"`
}

// Storage is validation-gen's union with members of Go value types, as
// k8s.io/api writes them, in stability wrappers: a member is unset at its
// zero value.
type Storage struct {
	// +k8s:beta(since: "1.36")=+k8s:unionDiscriminator
	// +optional
	Mode string `json:"mode,omitempty"`
	// +k8s:alpha(since: "1.35")=+k8s:unionMember(memberName: "Inline")
	// +optional
	Inline string `json:"inline,omitempty"`
	// +k8s:beta(since: "1.36")=+k8s:unionMember
	// +optional
	Items []string `json:"items,omitempty"`
	// +k8s:unionMember
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// +k8s:unionMember
	// +optional
	Size int32 `json:"size,omitempty"`
	// +k8s:unionMember
	// +optional
	Ref *Thing `json:"ref,omitempty"`
}

// Thing is a struct member, behind a pointer.
type Thing struct {
	// +optional
	Name string `json:"name,omitempty"`
}
