// Package shrink makes a counterexample small enough to read.
//
// In: a pair of decoded JSON objects, old and new, and a predicate that
// says whether a pair still shows what the caller found (for verify: the
// apiserver would judge it, the verdicts differ the same way, of the same
// cause). Out: the smallest pair the search reached for which the
// predicate holds.
//
// Invariants:
//
//   - Only ever smaller: a candidate replaces the pair only when its
//     canonical text is shorter, so the search ends.
//   - The predicate holds of the result whenever it held of the pair
//     given; the result is the pair given when no candidate keeps it.
//   - Deterministic: candidates are tried in a fixed order (removals from
//     both objects, then from one, then simpler values; map keys sorted),
//     at most 2,000 of them per pair.
//   - The pair given is never changed; candidates are copies.
package shrink
