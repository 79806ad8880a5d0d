// Package validity decides, as the apiserver does on create, whether it
// accepts a custom resource, and why not: what
// internal/kube.ObjectValidator decides, for a fraction of its cost.
//
// In: a version's schema as the apiserver's schema validator holds it
// (kube-openapi's form, ObjectValidator.Parts), its structural form and
// the apiserver's validator of its rules; objects in stored form, with
// the apiVersion, kind and metadata of the resource. Out: the errors
// ObjectValidator.Validate returns for an object, and for a new object
// given an old one that passed.
//
// Invariants:
//
//   - The errors are ObjectValidator's, as a set, word for word. The
//     schema validation is kube-openapi's, each check mirrored on the same
//     schema (openapi.go), or kube-openapi itself where a keyword is not
//     mirrored; list-type uniqueness is listtype's (listtype.go); the
//     rules are evaluated by the apiserver's own validator, on the nodes
//     it evaluates them on. The messages of a refused object come from
//     kube-openapi run at the deepest node holding every failing value,
//     with that node's path (errors.go), and from the rules evaluated.
//   - Object validates a whole object; Changed validates a new object
//     only where it differs from the old one: what changed, the checks
//     of its ancestors that read what they hold (required properties,
//     bounds on properties and items, uniqueness of sets and list-maps,
//     junctors) and their rules on create. Everything else is the old
//     object's, which passed. Where the rules of the new object could
//     run out of the budget of the whole object, or a rule stops the
//     others, Changed gives no verdict, and the caller validates whole.
//   - Rules that read oldSelf, which the apiserver does not evaluate on
//     create, are not walked to; which they are is known by compiling
//     them as the apiserver does.
//   - Nothing here changes the objects it is given.
package validity
