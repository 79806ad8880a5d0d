// Package kustomize is the back end of mut2cel patch: a kustomize
// Component that applies a translation to CRDs that are kept as
// published.
//
// In: for each CRD, plain documents: its published form and its
// translation (the CRD back end's output, which translate.Result holds as
// Base and Translated); driver/patchrun makes them from the
// inputs of a run and writes the result. Out: kustomization.yaml text of
// kind Component whose patches are JSON6902 operations, one patch per
// CRD, targeted by group, version, kind and name.
//
// Invariants:
//   - Applied to the published CRDs, the patches give exactly the
//     translations (tested with kustomize's own krusty).
//   - Every patch starts with a test operation on the name of each version
//     it changes, so that a CRD whose versions moved fails the build
//     instead of being patched in the wrong place.
//   - Nothing the CRD holds is overwritten or removed without a test just
//     before: a value replaced or removed is tested equal to its published
//     value, a key added (a rule list, a bound, an annotation) is tested
//     for null, which kustomize passes only when it is absent, and a list
//     item patched in place is tested whole. So a later upstream release
//     that changed one of those nodes fails the build instead of losing
//     the change.
//   - A list that exists is appended to with "/-", which keeps what it
//     holds; one that does not is added whole. Annotations are added key
//     by key, since kustomize gives every resource an annotations map
//     while it patches. Keys in paths are escaped ("~" as "~0", "/" as
//     "~1").
//   - The output is deterministic: CRDs in input order, keys sorted.
//   - The component states, in a comment line under its header, the
//     oldest Kubernetes version the patched CRDs work on (CRD.KubeVersion,
//     the newest among them); a comment, since kustomize refuses unknown
//     keys in a Component.
//   - A component patches something: with no CRD to patch, Kustomization
//     fails (ErrNoPatches) rather than write "patches: []".
package kustomize
