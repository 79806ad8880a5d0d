// Package cluster reads documents from a live cluster, as files are read
// from a disk: the CustomResourceDefinitions it has installed, and the
// OpenAPI v3 documents it serves for its group versions. It reaches the
// cluster the way kubectl does, and only reads.
//
// Input: Options naming a kubeconfig (an explicit path, or the files of
// KUBECONFIG merged as kubectl merges them, or ~/.kube/config; in a pod
// with no kubeconfig, its service account) and a context (the current
// one by default); then a Selection of CRDs, or a group version.
//
// Output: CRDs as decoded documents (map[string]interface{}, integers as
// int64, as the manifest package decodes a file), sorted by name, each
// with its origin for messages ("cluster kind-dev:
// customresourcedefinitions/gateways.networking.example.com") and what
// the server keeps beside the definition (Stored); OpenAPI documents as
// frontend/builtin reads them for --openapi (builtin.ReadOpenAPI), named
// "cluster kind-dev: /openapi/v3/apis/apps/v1".
//
// Invariants:
//   - Only GET requests leave the process: the one place a request is
//     made builds a GET, and the transport refuses any other method
//     before it reaches the network. Loading the kubeconfig writes no
//     file (clientcmd's migration of old kubeconfig locations is off).
//   - A CRD document read from a cluster holds what its manifest holds:
//     status, and the metadata the server writes (managedFields,
//     resourceVersion, uid, creationTimestamp, generation, selfLink,
//     deletionTimestamp, deletionGracePeriodSeconds) and the copy kubectl
//     apply keeps of the last manifest applied are set aside in Stored,
//     and apiVersion and kind, which the items of a list leave out, are
//     set. What the server defaults on create (spec.conversion.strategy
//     None, names.listKind, names.singular, a webhook service's port 443)
//     stays: a manifest may as well say it, and the model reads it alike.
//   - Everything one Reader reads, all responses together, is held to the
//     limits of a run (internal/limits: 64 MiB, 2,000,000 values). A
//     response is counted as it arrives and reading stops one buffer
//     past the limit, with an error naming the request's path; an error
//     response is read up to 64 KiB for its message.
//   - Each request has a timeout (Options.RequestTimeout), the requests
//     of a Reader together a deadline (Options.Timeout, from Open), and
//     every call a context. At most four requests are under way at once,
//     however many callers a Reader has. Nothing is retried: a failure is
//     reported as it happened.
//   - Every error is one of the run, not of its invocation (exit status 2,
//     without usage text): it names the kubeconfig and the context for a
//     configuration that cannot be used, the context and the request for
//     a request that failed. A server that does not answer (refused,
//     unresolvable, no TLS handshake with the certificate the kubeconfig
//     trusts, no whole answer in time) is ErrUnreachable; a failure before
//     any connection (a credential plugin) or an answer is not.
//   - The package imports client-go's kubeconfig loading and transport,
//     the crd model (to read a CRD's name and group), frontend/builtin
//     (its OpenAPI reader) and internal/limits; never the compiler, back
//     ends, translate, verify or drivers (deps_test.go).
package cluster
