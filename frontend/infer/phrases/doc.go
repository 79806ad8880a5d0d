// Package phrases reads what a sentence of a CRD's description, or of a
// published rule's message, says of its field's updates, with the one
// table of phrasings, their qualifiers and the sentence's subject
// (docs/infer.md, "What a description says: the table of phrasings").
//
// Input: a text, which Sentences splits into sentences, and for each
// sentence a Context: the field's name, the CRD's kind, the property
// names of the version, and whether it is a rule's message.
//
// Output: a Statement per sentence that says something of the kind: its
// Reading (immutable, set once, required once set, each with its
// constraints of docs/semantics.md section 9), the Doubt that keeps it
// from being taken as it stands (a condition, a hedge, who may not
// change it, a subject that is another field), and the Others its
// subject names. CopiedBuiltin tells a sentence copied with the
// documentation Kubernetes gives its own types.
//
// Invariants:
//   - A sentence says what the first phrasing of the table in it says; a
//     negation, an adjective ("an immutable snapshot") or "read-only"
//     matches none.
//   - It knows nothing of schemas: the caller resolves the names a
//     subject speaks of.
//   - Untrusted text cannot make it fail: texts are read up to a bound,
//     names from the CRD are made valid UTF-8 and quoted before they
//     enter a pattern, and Quote bounds what is quoted back.
package phrases
