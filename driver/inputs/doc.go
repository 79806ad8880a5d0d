// Package inputs reads what every command that compiles declarations
// takes besides its CRDs: the declarations files (--declarations), the Go
// packages whose markers declare (--markers), the target Kubernetes
// version, the bounds the CRD back end may add (--max-length, --max-items,
// --max-properties, --bound-floor, --no-bounds), --all-versions and
// --compare-formats-as-values. translate, patch, policy, cost and verify
// read them with the same code, so that a flag one of them takes means
// the same in all.
//
// Input: Options, the values of those flags. Output: Inputs, holding the
// translate.Options of every translation of the run, the declaration
// sets read, the markers, and what the run must report at its end (the
// sets and --bound-floor paths that name nothing in the inputs).
//
// Invariants:
//   - A bad --bound-floor is a usage error, reported before anything is
//     read; a declarations file or package that cannot be read is a
//     diagnostic at its file and line, and the others are still read.
//   - A given --kube-version wins over the version a declarations file or
//     a translated CRD says; the fallback stands only where they say none.
//   - Under --markers, the rules controller-gen wrote for the markers
//     mut2cel reads are replaced by mut2cel's, with a warning each.
//   - A declaration set or --bound-floor path that names no CRD of the
//     inputs is reported: a warning where others do, an error where
//     nothing declared was found.
package inputs
