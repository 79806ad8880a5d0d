//go:build server

// The apiextensions-apiserver and etcd of verify --server weigh about 80 MB
// and 800 packages, more than the rest of mut2cel, and its admission-policy
// plugins (driver/policyserver), through the in-memory clientset they read
// their policies from, 23 MB more. The admission-policy code that judges
// policies in process (driver/policyjudge) imports that clientset too, and
// alone makes the binary a third larger (79 MB against 58). Only a binary
// built with the server tag has them (TestNoServerDeps keeps them out of
// the others).

package main

import (
	"io"

	"github.com/mut2cel/mut2cel/driver/apiserver"
	"github.com/mut2cel/mut2cel/driver/policyjudge"
	"github.com/mut2cel/mut2cel/driver/policyserver"
	"github.com/mut2cel/mut2cel/driver/verifyrun"
)

func init() {
	startServer = apiserver.StartForVerify
	policyJudges = policyjudge.InProcess{}
	startPolicyServer = func(stderr io.Writer, quiet bool) (verifyrun.PolicyJudges, func(), bool) {
		s, stop, ok := policyserver.StartForVerify(stderr, quiet)
		if !ok {
			return nil, nil, false
		}
		return s, stop, true
	}
}
