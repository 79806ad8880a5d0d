// Package diag is the one shape of a problem mut2cel reports, from every
// phase: reading manifests and declarations files, translating, costing,
// verifying, and the command's own checks.
//
// Input: what a phase knows of a problem, set as fields of a Diagnostic:
// where it is (file, line, column, document, object, schema path), what
// it is about (the declaration), how the apiserver would classify it
// (Type), the refusal docs/semantics.md allows (Reason), what is wrong
// and what to do (Detail), and whether it fails the run (Severity).
//
// Output: one text rendering (String, and Wrapped for a reader), one
// JSON shape (MarshalJSON), and List, an error holding every problem of
// a step.
//
// Invariants:
//   - The text leaves out what is unknown; the same diagnostic always
//     renders to the same bytes.
//   - Wrapped shortens the paths and words from the input that are too
//     long to read (Shorten, the one place of that wording); String and
//     the JSON keep them whole.
//   - The JSON keys are fixed: file, line, column, document, object,
//     field, type, reason, warning, detail; only detail is always there.
//   - Messages say what to do in the library's terms; a phase names no
//     command-line flag. It may set Hint to the option a command can
//     name, and the command words it.
//   - The package imports nothing of the module, so every layer may use
//     it.
package diag
