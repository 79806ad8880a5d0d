// Package translaterun drives mut2cel translate: it translates the CRDs
// of each input with the run's inputs (driver/inputs), and writes the
// translations to standard output, rewrites the files in place (-w), or
// reports which files would change (--check, --diff), in text or as one
// JSON document.
//
// Input: Options: the paths, the run's inputs, the translator, what to
// do with the translations, and a batch.Reporter for what the run says
// as it goes. Output: a batch.Outcome: the output, the problems and the
// summary line for the command to print, and how the run ended.
//
// Invariants:
//   - Every problem of every input is reported, and then nothing is
//     written: not one file of a run with a problem.
//   - Inputs that declare nothing, in their schemas, annotations,
//     declarations files or markers, are an error: the run would change
//     nothing, and --check would pass on CRDs whose declarations were
//     lost.
//   - --check fails on a document that -w would reformat beyond its
//     edits.
//   - The JSON report (docs/rewrite.md) only ever gains fields; its exit
//     status is the text form's.
package translaterun
