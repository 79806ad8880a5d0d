// Package diff writes unified diffs of text files, for mut2cel translate
// --diff.
//
// In: two versions of a file as bytes. Out: the unified diff ("diff -u"
// format, three lines of context), empty when they are equal.
//
// Invariants:
//   - Applying the output with patch(1) or git apply turns the first
//     version into the second, line terminators and a missing final newline
//     included ("\ No newline at end of file").
//   - The edit script is a shortest one (Myers' algorithm in linear space)
//     unless a region needs more than maxCost edits; such a region is
//     shown as removed and added whole, which is still correct.
package diff
