package policyserver

import (
	"io"

	"github.com/mut2cel/mut2cel/driver/apiserver"
)

// StartForVerify starts the server of verify --server with --policy,
// --against-policy or --normalize: the apiextensions-apiserver with the
// admission-policy plugins, as apiserver.RunForVerify runs it. It returns
// the server and what stops it, or false when it cannot start, which it
// reports.
func StartForVerify(stderr io.Writer, quiet bool) (*Server, func(), bool) {
	var s *Server
	_, stop, ok := apiserver.RunForVerify(stderr, quiet, "an apiextensions-apiserver with the admission-policy plugins", func() (*apiserver.Server, error) {
		var err error
		if s, err = Start(Options{}); err != nil {
			return nil, err
		}
		return s.Server, nil
	})
	if !ok {
		return nil, nil, false
	}
	return s, stop, true
}
