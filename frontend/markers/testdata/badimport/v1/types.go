// Package v1 imports a package no module provides: go list reports it
// at the import, relative to the directory it runs in.
// +groupName=markers.example.com
package v1

import (
	_ "nonexistent.example/foo"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Gadget is the kind under test.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}
