// Package v1 holds the types the marker reader's tests read.
// +kubebuilder:object:generate=false
// +groupName=markers.example.com
package v1
