// Package policyserver runs the apiextensions-apiserver of
// driver/apiserver with the apiserver's MutatingAdmissionPolicy and
// ValidatingAdmissionPolicy admission plugins in its admission chain, and
// judges requests for custom resources through them: a real server
// enforcing and applying the admission policies that backend/policy
// writes, end to end (verify --server with --policy, --against-policy or
// --normalize).
//
// Input: Options.Objects and InstallPolicies give the plugins their
// Validating- and MutatingAdmissionPolicies, bindings and namespaces
// (admissionregistration.k8s.io/v1, core/v1); NewPolicyJudge takes the
// validating policies of backend/policy for a CRD as published, without
// declarations, and NewNormalizer a normalizing policy and the declared
// CRD.
//
// Output: a Server (an apiserver.Server whose admission chain runs the
// plugins), verify.Judges that decide each update by creating the old
// object and updating it to the new one, the CRD's own rules and then the
// policies deciding, as in a kube-apiserver, and Normalizations that
// return what the server stored of a request after the mutating plugin
// ran the normalizing policy.
//
// Invariants:
//
//   - The plugins are the apiserver's own (mutating.NewPlugin,
//     validating.NewPlugin), in a kube-apiserver's order (mutating
//     first), given what they need by the apiserver's own plugin
//     initializers and checked by admission.ValidateInitialization; the
//     mutating plugin's feature gate is on, or Start fails. Only what
//     this server cannot serve is not real: the policies, bindings and
//     namespaces come from an in-memory clientset (client-go's fake),
//     through informers, as from a kube-apiserver, with the defaults a
//     kube-apiserver gives them (defaults.go). Everything else the
//     plugins use is the server's: its authorizer, a dynamic client on
//     its loopback connection, a REST mapper over its discovery
//     (mapper.go), and its discovery for the OpenAPI v3 documents the
//     mutating plugin builds type converters from.
//   - InstallPolicies returns only once the plugins enforce what they
//     were given; Start, once they have compiled Options.Objects; a
//     Normalization is returned once the mutating plugin has the type
//     converter of its CRD.
//   - A judge's or normalizer's copies of the policies differ from the
//     policies only in their names, in the API group they match (the
//     judged group instead of the CRD's), in one match condition that
//     leaves alone the user old objects are created as, and, for a
//     validating policy read without a binding, in a binding that
//     denies; the requests it judges are matched and decided as written.
//   - The default binary does not import this package: only mut2cel
//     built with the server tag does (cmd/mut2cel/verifyserver.go), where
//     the in-memory clientset, which holds every client-go type, adds
//     about 23 MB.
package policyserver
