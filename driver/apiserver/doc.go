// Package apiserver runs a real apiextensions-apiserver in process, on an
// embedded etcd, and judges updates of custom resources through it.
//
// Start takes no input but where to log; it returns a Server whose Config
// reaches it as a privileged client. Nothing is downloaded and no binary is
// run: etcd and the apiserver are the Kubernetes modules this program is
// built with (a Kubernetes 1.37 apiextensions-apiserver). The server works
// the same from a test and from an installed binary, built with -trimpath
// or not: it reads no file of its source tree.
//
// Server.NewJudge installs one version of a CRD and returns a
// verify.Judge that decides each update by creating the old object and
// updating it to the new one. Options.Configure and Server.NewJudgeWith
// let a caller add to the server's admission chain and judge through it
// (driver/policyserver adds the ValidatingAdmissionPolicy
// plugin, which reads objects this server does not serve).
//
// Invariants:
//
//   - Every port is chosen by the kernel when it is bound; two servers in
//     one process or on one machine do not collide.
//   - Every file (etcd's data, a client configuration) lives in one
//     temporary directory, removed by Stop.
//   - klog, which is process-global, writes to Options.Log from Start on.
//   - A judge installs its CRDs in groups of their own, <prefix>.<group>:
//     protected (k8s.io, kubernetes.io and their subdomains, KEP 1111)
//     exactly when the CRD's group is, and carrying the CRD's
//     api-approved.kubernetes.io annotation.
package apiserver
