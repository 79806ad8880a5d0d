// Package v1 is in a module of its own, with a marker that is an error
// when read: reading it means the loader crossed into the nested module.
package v1

// Inner is not a kind of the outer module.
type Inner struct {
	// +immutable=Sometimes
	Class string `json:"class"`
}
