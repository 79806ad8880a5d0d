package cluster

// SetPageSize sets the most CRDs a list request asks for, so that a test
// reads a few CRDs in several pages; it returns the function that puts
// the size back.
func SetPageSize(n int) (restore func()) {
	old := pageSize
	pageSize = n
	return func() { pageSize = old }
}
