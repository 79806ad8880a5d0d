// Package verifyrun is mut2cel verify's run (Options, Run): which CRD's
// declarations are held against which CRD's rules (Jobs), the judge of
// each job, the garbage collector's bounds, and the text and JSON or YAML
// reports of verify.Verify's results. The command only binds flags,
// prints and maps the outcome to an exit code.
//
// The judges that run the apiserver's admission code live here, not in
// verify, which imports no back end: PolicyJudge decides updates by the
// validating policies of backend/policy (verify --policy), and
// NormalizationJob.Verify holds its mutating policies to the reference
// normalizer (verify --normalize).
//
// In: input paths, the --against manifest, the declarations the command
// read (files and markers, as batch.DeclarationSets), the translate
// options of the run and its translator (which applies the markers), and
// how to judge (the CRD's rules in process or through the apiserver of
// --server, policies, normalizing policies). Out: Jobs, each a CRD with
// declarations and the CRD under test, with diagnostics and warnings;
// then reports written to the run's standard output as each CRD is done,
// its last lines on standard error, and its batch.Exit.
//
// Invariants:
//   - Every CRD of the inputs that has declarations, after those of the
//     declarations files and --all-versions are added, gives one job, in
//     input order; a CRD without declarations gives none. Inputs that
//     give no job, or hold no CRD, are an error: nothing checked is not a
//     check passed.
//   - The CRD under test is, in this order of precedence: its namesake in
//     --against; the input itself when translate rewrote it (its
//     annotation holds the declarations); its translation made here.
//   - With --against, the declarations are not translated into rules: a
//     declaration no rule can express is still held against its rules.
//   - The declared CRD, the checker's input, is read by verify/declread,
//     never by translate: translate only makes the CRD under test, so
//     that a misreading of the annotation, the declarations files or
//     --all-versions in translate shows as a disagreement.
//   - Jobs prints nothing: problems come back as diagnostics, each at
//     its file and line, every one of them; warnings come back apart.
//     Run says them through the Reporter the command gives it.
//   - The reports are deterministic: the same results give the same bytes.
package verifyrun
