// Package v1 is the API of the kubebuilder example: a Go API whose
// mutability is declared with markers, from which controller-gen
// generates the CRD and mut2cel compiles the markers into its rules.
// +kubebuilder:object:generate=false
// +groupName=storage.example.com
package v1
