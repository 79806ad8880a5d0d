// Package reference holds the reference semantics of mut2cel: the checker
// of declarations and the normalizer of unions, written from
// docs/semantics.md alone.
//
// The checker decides updates of a custom resource directly from the
// text, without CEL and without the translator's analysis, so that one
// misreading of the semantics cannot hide in both; verify holds the rules
// of a CRD, and driver/verifyrun its policies, to it. It imports neither
// translate nor any back end (internal/layers forbids it): it reads the
// declarations on its own, and walks old and new objects on its own.
//
// Inputs and outputs:
//
//   - NewChecker takes the raw openAPIV3Schema of one CRD version as decoded
//     from JSON or YAML (map[string]interface{}), because the typed
//     apiextensions structs drop the extensions (x-kubernetes-mutability,
//     x-kubernetes-key-mutability, x-kubernetes-update,
//     x-kubernetes-unions, and the modifier x-mut2cel-formats). It returns
//     every invalid declaration (semantics.md 1.1, 9.2, "Unions") as one
//     aggregate of field errors, sorted, with apiserver-style schema paths.
//   - Check takes the old and the new object in stored form (pruned,
//     defaulted, numbers as JSON decoding yields them) and returns the
//     violations, sorted by Path, Kind, Declaration and Detail: of the
//     update declarations, and of the unions on the nodes the apiserver's
//     CRD validation ratcheting would check (unioncheck.go). CheckCreate
//     takes one created object and returns the violations of its unions.
//   - For verify's reports, CheckExercised also lists the declarations an
//     update exercised and the constraints it broke; Declarations,
//     Constraints (constraints.go) and DeclaredPaths list what the schema
//     declares, DeclarationOf names the declaration a violation breaks,
//     and Unions gives the pair generator the unions, which a structural
//     schema cannot hold.
//   - Checker.Normalize takes the old object (nil on create) and the new
//     one and returns the new one as the unions' normalization leaves it
//     (semantics.md 11.7, normalize.go), or an error naming the unions it
//     refuses to normalize (over the root's apiVersion, kind or
//     metadata). Unions inside entries are normalized entry by entry,
//     each against the old entry it pairs with (a map value by key, a
//     list-map item by its keys, an atomic or set item none). It walks the JSON itself; the
//     policy back end is held to it by this package's tests, which run the
//     policies with the apiserver's code.
//   - DeclaringVersions takes a CRD document and lists the versions whose
//     schema declares anything, valid or not.
//
// Invariants:
//
//   - Check(x, x) is empty for every x, but where a declaration compares
//     formatted strings as values (x-mut2cel-formats, or
//     Checker.CompareFormatsAsValues) and x holds, where it covers, a
//     string the apiserver's CEL cannot read: that string equals nothing,
//     and the update is denied, as the apiserver denies it
//     (semantics.md 8). The checker reads the three formats on its own
//     (formatvalue.go).
//   - Check(x, x) is empty for every x that holds its unions; for any x it
//     holds nothing but union violations, on nodes that hold a key without
//     a schema (the root's metadata, preserved unknown fields), which the
//     apiserver's ratcheting never finds unchanged either.
//   - The result never depends on Go map iteration order: properties and map
//     keys are walked sorted, list items in list order.
//   - Check never panics on objects that do not match the schema: a value of
//     the wrong type is a position that does not resolve, a collection of the
//     wrong type has no keys. Duplicate keys in list-maps and sets, which
//     validation rejects, pair old and new items in order of occurrence.
//   - What the checker shares with the translator is named: the names of
//     the kinds and of CompareAsValues, a message or two, and the notation
//     of schema paths (decl). Where a declaration may stand and what it
//     means, the checker decides alone; the schema it reads has every
//     declaration written inline, as verify/declread writes it.
//   - Only junctor-free schema nodes describe fields: allOf, anyOf, oneOf and
//     not are read only to reject declarations inside them.
//   - x-kubernetes-unions is read by the checker alone (union.go), not by
//     decl: where a union may stand and what it means are the checker's,
//     like every other declaration's.
package reference
