// Package inferrun drives mut2cel infer: it reads CRDs from files or from
// a live cluster, proposes declarations for each from what it says
// (frontend/infer), has translate vet the sure ones, and writes the
// declarations file, ready for --declarations. mut2cel audit
// (driver/auditrun) reads and proposes with the same code.
//
// Input: Options: a Source (input paths, or a cluster reached through a
// kubeconfig and a context, with a selection of CRDs), the translate
// options and translator of the run (its target Kubernetes version), the
// file to write, and a batch.Reporter. Output: a batch.Outcome: the
// declarations file on standard output or the file written, the problems,
// and a summary line.
//
// Invariants:
//   - A cluster is only read (frontend/cluster sends GET requests only),
//     and a CRD read from it gives the same proposals as its manifest.
//   - Every CRD of the inputs is proposed for, in input order (a
//     cluster's by name); a CRD that cannot be read as a model is a
//     problem at its document, and a run with a problem writes nothing.
//   - What translate refuses is written commented out with its reason
//     (infer.Result.Vet): every uncommented proposal is one translate
//     --declarations accepts, at the run's target version.
//   - The text depends on the CRDs only, not on where they were read.
//   - --out replaces only a file infer wrote (Header), atomically.
package inferrun
