// Package manifest reads Kubernetes manifest streams and applies
// edit.Edit lists to them without disturbing what the edits do not touch.
//
// In: a file's bytes, either a multi-document YAML stream or one JSON value.
// Out: the same stream with some documents edited.
//
// Invariants:
//   - Parse followed by Bytes, without edits, returns the input byte for byte:
//     separators, comments, empty documents, line endings and a missing final
//     newline are kept.
//   - A file with a UTF-16 byte order mark is read as its UTF-8 text, which
//     Bytes returns once a document is edited: output is UTF-8.
//   - Values are decoded the way kubectl reads manifests: YAML 1.1 through
//     sigs.k8s.io/yaml (unquoted y, no, on, off are booleans, as values and as
//     keys), then JSON with integers as int64 and other numbers as float64.
//   - Edits may delete keys and validation rules, set scalar keys, append
//     rules, and create the one missing mapping an edit with Create names
//     (metadata.annotations of a CRD that has none). New keys and values are
//     quoted so that YAML 1.1 and 1.2 read the same strings.
//   - After Apply, a document's decoded value equals edit.Apply of its previous
//     value. Apply first splices new lines into the original bytes; when that
//     is not possible, or the result does not decode to the intended value, it
//     re-encodes that one document. If neither gives the intended value, Apply
//     returns an error and leaves the document as it was.
//   - A spliced document is its input byte for byte outside the lines the
//     edits write or delete: folded, literal and multi-line plain scalars,
//     comments, quoting and key order included. Block mappings laid out one
//     key per line, as controller-gen, kubebuilder and kubectl write them,
//     are spliced, also when several edits touch one node.
//   - Reformatted reports a document that was re-encoded and whose text
//     then differs outside the edits, judged by re-encoding it unedited: an
//     encoder that gives back the text byte for byte changes only what the
//     edits change. JSON is always re-encoded, but JSON indented by one unit
//     throughout (kubectl, json.MarshalIndent, jq) comes back byte for byte,
//     so it is not Reformatted; counting it would make every JSON CRD fail
//     translate --check while its lines outside the edits stay as they were.
//     JSON laid out by hand (objects on one line inside indented ones) is.
package manifest
