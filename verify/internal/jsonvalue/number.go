package jsonvalue

import (
	"encoding/json"
	"math"
	"strconv"
)

// Number is a JSON number as decoding produces it: an integer (int64 from
// the apiserver's decoder) or a float (float64 from encoding/json). Strict
// equality compares numeric values (semantics.md 2.3), so a stored 1 equals
// a 1.0 in a request.
type Number struct {
	isInt bool
	i     int64
	f     float64
}

// NumberOf converts the Go types that decoders produce; ok is false for
// anything else.
func NumberOf(v interface{}) (Number, bool) {
	switch x := v.(type) {
	case int:
		return Number{isInt: true, i: int64(x)}, true
	case int32:
		return Number{isInt: true, i: int64(x)}, true
	case int64:
		return Number{isInt: true, i: x}, true
	case float32:
		return Number{f: float64(x)}, true
	case float64:
		return Number{f: x}, true
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return Number{isInt: true, i: i}, true
		}
		f, err := x.Float64()
		return Number{f: f}, err == nil
	}
	return Number{}, false
}

// AsInt returns the integer a number equals exactly, if any. A float64
// converts only when it is integral and inside the int64 range, so large
// integers are never rounded into equality.
func (a Number) AsInt() (int64, bool) {
	if a.isInt {
		return a.i, true
	}
	if a.f != math.Trunc(a.f) || a.f < -(1<<63) || a.f >= 1<<63 {
		return 0, false
	}
	return int64(a.f), true
}

// Equal compares a and b by value.
func (a Number) Equal(b Number) bool {
	ai, aok := a.AsInt()
	bi, bok := b.AsInt()
	if aok || bok {
		return aok && bok && ai == bi
	}
	return a.f == b.f
}

// String is canonical: equal numbers give equal strings.
func (a Number) String() string {
	if i, ok := a.AsInt(); ok {
		return strconv.FormatInt(i, 10)
	}
	return strconv.FormatFloat(a.f, 'g', -1, 64)
}

// Float is the number as a float64, rounded where an integer has no
// exact float.
func (a Number) Float() float64 {
	if a.isInt {
		return float64(a.i)
	}
	return a.f
}
