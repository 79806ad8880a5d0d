// Package markers is the Go front end of mut2cel: it reads mutability
// markers from the comments of Go API types, as kubebuilder projects write
// them, and gives the declarations they make as decl.Sets.
//
// Input: Go package patterns (./api/...), matched as go list matches them
// in the module of the directory given; a pattern outside any module is
// an error, before any directory is walked. The packages are loaded and
// their schemas generated with controller-tools' own loader, marker
// collector and CRD parser (sigs.k8s.io/controller-tools), so that a
// field reaches the schema path controller-gen gives it: json tags,
// inline and embedded structs, pointers, slices, maps, aliases, and
// markers on a type applied wherever the type is used.
//
// Output: one decl.Set per CRD and version, each Field at the Go file and
// line of the marker that declared it; and the +k8s:immutable fields and
// ExactlyOneOf/AtMostOneOf markers for which controller-gen wrote rules
// of its own, which ControllerGenRules finds in controller-gen's output
// (either rule shape) so that they can be replaced.
//
// Markers (docs/markers.md):
//
//	+immutable, +immutable=AddOnly|RemoveOnly     x-kubernetes-mutability
//	+immutable-keys[=AddOnly|RemoveOnly]           x-kubernetes-key-mutability
//	+k8s:immutable                                 x-kubernetes-update [NoSet, NoUnset, NoModify]
//	+k8s:update=NoSet|NoUnset|NoModify|NoAddItem|NoRemoveItem (repeatable)
//	+k8s:eachVal=+k8s:immutable, +k8s:eachVal=+k8s:update=NoModify   the same on the entries ([*])
//	+union, +unionDiscriminator, +unionDeprecated   x-kubernetes-unions on the struct's node
//	+k8s:unionMember(union:, memberName:), +k8s:unionDiscriminator(union:), +k8s:zeroOrOneOfMember
//	+kubebuilder:validation:ExactlyOneOf=a;b, AtMostOneOf=a;b            the same
//
// A struct's unions are one x-kubernetes-unions value on the node it
// lands on (an inlined struct's on the node it is inlined into);
// discriminator values default to the Go field name. validation-gen's
// member tags on a field of a Go value type (not a pointer) list it in
// zeroIsUnset, as validation-gen reads such a member; its stability
// wrappers +k8s:alpha(since: "X")= and +k8s:beta(since: "X")= are read
// around the union tags (unionwrap.go).
//
// Invariants:
//   - Every problem is a decl.Error at the Go file and line of the marker
//     (or of the Go code controller-tools could not read); all are
//     reported, sorted.
//   - Only marker spellings validation-gen or the KEP define are read; a
//     spelling the model cannot say (+k8s:item, +k8s:subfield with an
//     update payload, +k8s:modeDiscriminator, +k8s:ifMode, a stability
//     wrapper around an update tag, a validation-gen member of a value
//     type without one zero value) is an error, never approximated.
//   - Output is deterministic: sets by CRD and version, fields by path.
package markers
