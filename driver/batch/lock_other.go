//go:build !unix

package batch

import "os"

// flock does nothing where there is no flock: the file is only checked
// against what was read, not locked.
func flock(*os.File) error { return nil }
