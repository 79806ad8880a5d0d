//go:build !unix

package batch

// openNonblock is 0 where files have no O_NONBLOCK.
const openNonblock = 0
