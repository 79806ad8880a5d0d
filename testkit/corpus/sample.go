package corpus

import "testing"

// Sample returns items whole, or under -short n of them, one from the
// middle of each of n equal stretches: go test -short gives quick feedback on a part of
// a sweep whose whole runs in the full suite (make test). A test that
// asserts a total over the sweep checks it only when Whole says so.
func Sample[T any](items []T, n int) []T {
	if !testing.Short() || n <= 0 || len(items) <= n {
		return items
	}
	out := make([]T, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, items[(2*i+1)*len(items)/(2*n)])
	}
	return out
}

// Whole reports whether Sample returns whole sweeps: outside -short.
func Whole() bool { return !testing.Short() }
