// Package jsonvalue holds what every part of verify needs of decoded
// JSON values: numbers compared by value, a canonical text and deep
// copies. The reference checker, the pair generator, the shrinker and the
// runner share it, and nothing of their meaning is in it.
//
// In: values as JSON and YAML decoders and the apiserver's storage
// pipeline yield them (maps, lists, strings, booleans, nil, and numbers as
// int64, float64 or the other Go number types decoders produce). Out:
// Numbers, canonical strings and copies.
//
// Invariants:
//
//   - Numbers are compared by value (semantics.md 2.3): the integer 1 and
//     the float 1.0 are equal, and a large integer never equals the float
//     it rounds to.
//   - Canonical gives equal values equal strings whatever the map order
//     and number type, and different values different strings.
//   - Copy shares nothing mutable with its argument.
package jsonvalue
