// Package shared holds a type that testdata/api imports: its markers are
// read although the package is not one of the patterns loaded.
package shared

// Quota is used by a field of testdata/api's Widget.
type Quota struct {
	// +k8s:update=NoUnset
	Limit int64 `json:"limit,omitempty"`
}
