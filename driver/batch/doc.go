// Package batch runs mut2cel over a set of input files for the command
// line: it finds the inputs, reads the declarations files, visits the CRD
// documents of each input (EachCRD, the one document loop of translate,
// patch, cost and verify), translates them, joins the outputs into one
// stream, and writes files atomically. It holds what subcommands share,
// so that cmd/mut2cel only parses flags and maps results to exit codes.
//
// Invariants:
//   - Inputs are processed in the order given; directories in lexical order.
//   - Documents that are not CRDs, and CRDs without declarations, pass
//     through byte for byte. The documents that are not CRDs are counted
//     (Census), one note an input, and inputs without a CRD are an error.
//     A document that is not a mapping (a list, a string) is not a
//     manifest, and an error.
//   - A CRD document written anew whose text then differs outside its
//     edits (manifest.Document.Reformatted) is reported, one warning in
//     Result.Reformatted, so that no reformatting goes unsaid.
//   - A served version whose declarations all need no rule gets a note
//     (UnenforcedNote), never an error: the commands that translate and
//     the policy command agree on such input.
//   - Every problem of every input is reported, each with file, line,
//     document and object; processing does not stop at the first.
//   - Problems are diag.Diagnostics (Diagnostic is that type), whatever
//     phase found them. The libraries name no flag: WithFlagHints adds
//     the words for the flag of the option a diagnostic hints at, before
//     the commands print text or JSON.
//   - A path given that holds no manifest (a directory without *.yaml,
//     *.yml or *.json files, or files without a document) is an error,
//     and so is standard input without a document.
//   - Only regular files are read by name (ReadFile): a named pipe or a
//     device, given or found in a directory, is an error before a byte is
//     read. Standard input may be anything.
//   - Inputs are read within the limits of internal/limits, one budget of
//     bytes and values for the inputs of a run and one for its
//     declarations files: the input that passes a limit is an error
//     naming it, read one byte past the limit at most and never parsed,
//     and no input after it is read.
//   - WriteInPlace, like gofmt -w, rewrites only files the user may write.
//     It writes nothing unless every changed file may be written and can
//     be staged beside its original with the original's owner and mode;
//     the originals are then replaced by atomic renames. Every file is
//     locked (flock) from the check that it is still as it was read to
//     its rename, so that two runs rewriting one file cannot both succeed
//     with one's change lost.
package batch
