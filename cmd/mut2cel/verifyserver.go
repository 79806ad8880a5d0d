//go:build server

// The apiextensions-apiserver and etcd of verify --server weigh about 80 MB
// and 800 packages, more than the rest of mut2cel: only a binary built with
// the server tag has them (TestNoServerDeps keeps them out of the others).

package main

import "github.com/mut2cel/mut2cel/driver/apiserver"

func init() { startServer = apiserver.StartForVerify }
