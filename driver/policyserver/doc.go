// Package policyserver runs the apiextensions-apiserver of
// driver/apiserver with the apiserver's ValidatingAdmissionPolicy
// admission plugin in its admission chain, and judges updates of custom
// resources through it: a real server enforcing the admission policies
// that backend/policy writes, end to end.
//
// Input: Options.Objects and InstallPolicies give the plugin its
// ValidatingAdmissionPolicies, bindings and namespaces (admissionregistration.k8s.io/v1,
// core/v1); NewPolicyJudge takes the policies of backend/policy for a CRD
// as published, without declarations.
//
// Output: a Server (an apiserver.Server whose admission chain runs the
// plugin), and verify.Judges that decide each update by creating the old
// object and updating it to the new one, the CRD's own rules and then the
// policies deciding, as in a kube-apiserver.
//
// Invariants:
//
//   - The plugin is the apiserver's own (validating.NewPlugin), given what
//     it needs by the apiserver's own plugin initializers and checked by
//     admission.ValidateInitialization. Only what this server cannot serve
//     is not real: the policies, bindings and namespaces come from an
//     in-memory clientset (client-go's fake), through informers, as from a
//     kube-apiserver, with the defaults a kube-apiserver gives them
//     (defaults.go). Everything else the plugin uses is the server's: its
//     authorizer, a dynamic client on its loopback connection, and a REST
//     mapper over its discovery (mapper.go).
//   - InstallPolicies returns only once the plugin enforces what it was
//     given; Start, once the plugin has compiled Options.Objects.
//   - A policy judge's copies of the policies differ from the policies
//     only in their names, in the API group they match (the judge's
//     group of apiserver.Server.NewJudge instead of the CRD's) and in one
//     match condition that leaves alone the user old objects are created
//     as; the updates it judges are matched and decided as written.
//   - The command does not import this package: the in-memory clientset
//     holds every client-go type and would add about 23 MB to
//     mut2cel built with -tags server.
package policyserver
