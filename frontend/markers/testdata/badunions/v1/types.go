// Package v1 misplaces union markers and makes inconsistent unions.
// +groupName=markers.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Thing is the kind under test.
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec ThingSpec `json:"spec"`
}

// ThingSpec holds every mistake.
type ThingSpec struct {
	// +k8s:unionDiscriminator
	Type int32 `json:"type"`
	// +k8s:unionMember
	Required *string `json:"required"`
	// +k8s:unionMember(memberName: "Same")
	// +k8s:zeroOrOneOfMember
	// +optional
	Twice *string `json:"twice,omitempty"`
	// +k8s:unionMember(memberName: "Same")
	// +optional
	Other *string `json:"other,omitempty"`
	// +k8s:modeDiscriminator
	// +optional
	Mode string `json:"mode,omitempty"`
	// +k8s:ifMode("A")=+k8s:required
	// +optional
	A *string `json:"a,omitempty"`
	// +union
	// +optional
	B *string `json:"b,omitempty"`
	// +k8s:unionMember(unions: "x")
	// +optional
	C *string `json:"c,omitempty"`
	// +optional
	Extra *Extra `json:"extra,omitempty"`
	// +optional
	Values *Values `json:"values,omitempty"`
}

// Extra names a property it lacks, and has a discriminator without
// members and a member left out of the schema.
// +kubebuilder:validation:ExactlyOneOf=nope;kept
type Extra struct {
	// +unionDiscriminator
	// +optional
	Kind string `json:"kind,omitempty"`
	// +optional
	Kept *string `json:"kept,omitempty"`
	// +k8s:zeroOrOneOfMember
	Hidden *string `json:"-"`
	// +k8s:zeroOrOneOfMember
	// +optional
	Shown *string `json:"shown,omitempty"`
	// +k8s:unionDiscriminator(union: "nothing")
	// +optional
	Other string `json:"other,omitempty"`
}

// Mode is no struct.
// +union
type Mode string

// Values has members of value types whose zero no one JSON value says,
// an update tag in a stability wrapper and a wrapper without since.
type Values struct {
	// +k8s:unionMember
	// +optional
	Plain Plain `json:"plain,omitempty"`
	// +k8s:unionMember
	// +optional
	When metav1.Time `json:"when,omitempty"`
	// +k8s:beta(since: "1.36")=+k8s:immutable
	// +optional
	Frozen string `json:"frozen,omitempty"`
	// +k8s:beta=+k8s:unionMember
	// +optional
	Bad *string `json:"bad,omitempty"`
}

// Plain is a struct.
type Plain struct {
	// +optional
	Name string `json:"name,omitempty"`
}
