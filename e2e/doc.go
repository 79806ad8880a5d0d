// Package e2e proves translated CRDs against a real apiextensions-apiserver.
//
// The tests start one apiserver per package run, in process, on an embedded
// etcd (no external binaries, nothing downloaded), with the starter of
// mut2cel verify --server (driver/apiserver), install the translations
// of the shipped examples and of the KEP example tables, and drive creates
// and updates of custom resources through the dynamic client with update
// (PUT), JSON merge patch and server-side apply, on the resource and on its
// status subresource.
//
// Inputs: examples/*.yaml, translated with translate.Translate at the
// default and at a later target version; the KEP tables written here as
// data; random updates from a pair source (pairgen.New); the
// deliberately wrong translations under testdata/broken, whose
// counterexamples, found by the verifier in process, the server must
// confirm, and which the verifier run with the server as its judge
// (verify --server) must find alike; and the kubebuilder example's CRD
// as controller-gen writes it and as translate --markers rewrites it,
// driven through the same updates to show what controller-gen's rules for
// +k8s:immutable let through and mut2cel's refuse.
//
// Invariants checked on every write request after the create:
//
//   - The server's verdict equals the reference checker's
//     (reference.Checker.Check) on the same pair: the object the server held
//     before the request, and the object it stores (or would have stored).
//   - A rejection is an Invalid status whose causes are exactly the errors
//     the generated rules give when run locally by the apiserver's CEL
//     validator on that pair, each with a generated message, at a field on
//     the path of a violation the checker reports.
//   - An accepted request stores the predicted object.
//   - Creates are never rejected (semantics.md 2).
//
// TestClusterInferAudit starts a server of its own, installs corpus CRDs
// and reaches it with a kubeconfig, as a user's cluster: mut2cel infer
// and audit (driver/inferrun, driver/auditrun) must give from it what
// they give from the files, sending only GET requests, as the server
// records them, and leaving every CRD as installed.
//
// The object a request would store is predicted without the rules under
// test: for update, the storage pipeline (internal/kube.Store) on the sent
// object; for merge patch, the same after applying the patch with the
// library the apiserver uses; for server-side apply, whose merge depends on
// field ownership, a dry run of the same request against a twin CRD that
// has the same schema without the generated rules.
package e2e
