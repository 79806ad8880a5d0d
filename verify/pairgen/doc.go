// Package pairgen generates the updates verify judges: pairs of an old
// and a new custom resource of one schema, as a client sends them.
//
// In: a structural schema, a seed and, for verify's runs, the reference
// checker of the declared version, whose declared nodes the mutations aim
// at and whose unions the objects are shaped to (a structural schema
// holds no unions). Out: pairs, one per Next, each a fresh old and new
// object that share nothing and carry no apiVersion, kind or metadata;
// and ObjectName, a metadata.name the schema accepts.
//
// New aims at the nodes that hold rules and the fields the rules name,
// where a translated CRD's declarations were; NewFor adds the checker's
// unions; NewDeclared, verify's, aims at the checker's declared nodes.
//
// Invariants:
//
//   - The same schema, seed and checker give the same pairs, in the same
//     order: properties and map keys are drawn in sorted order, and every
//     draw comes from the one seeded source.
//   - Old objects satisfy the schema as far as its keywords tell (types,
//     enums, formats, bounds, patterns, required properties, unique set
//     items and list-map keys); a new object is derived from the old by
//     one to three mutations, or drawn anew, and keeps its sets and
//     list-maps free of duplicate keys.
//   - Coverage is by construction: one pair in four follows a schedule
//     that aims at each target in turn, and reorders each set and
//     list-map at or below it (schedule.go).
//   - What the apiserver refuses teaches the generator, in the order the
//     caller reports it, so runs stay repeatable: Repair mends a refused
//     pair where the apiserver's error points, Refused and Passed make it
//     leave out the optional properties to blame, and Hint draws a string
//     a rule reads as a duration, URL or timestamp from that format's
//     samples (learn.go).
package pairgen
