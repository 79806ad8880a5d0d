package verify

import (
	"encoding/json"
	"math"
	"strconv"
)

// num is a JSON number as decoding produces it: an integer (int64 from the
// apiserver's decoder) or a float (float64 from encoding/json). Strict
// equality compares numeric values (semantics.md 2.3), so a stored 1 equals
// a 1.0 in a request.
type num struct {
	isInt bool
	i     int64
	f     float64
}

// number converts the Go types that decoders produce; ok is false for
// anything else.
func number(v interface{}) (num, bool) {
	switch x := v.(type) {
	case int:
		return num{isInt: true, i: int64(x)}, true
	case int32:
		return num{isInt: true, i: int64(x)}, true
	case int64:
		return num{isInt: true, i: x}, true
	case float32:
		return num{f: float64(x)}, true
	case float64:
		return num{f: x}, true
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return num{isInt: true, i: i}, true
		}
		f, err := x.Float64()
		return num{f: f}, err == nil
	}
	return num{}, false
}

// asInt returns the integer a number equals exactly, if any. A float64
// converts only when it is integral and inside the int64 range, so large
// integers are never rounded into equality.
func (a num) asInt() (int64, bool) {
	if a.isInt {
		return a.i, true
	}
	if a.f != math.Trunc(a.f) || a.f < -(1<<63) || a.f >= 1<<63 {
		return 0, false
	}
	return int64(a.f), true
}

func (a num) equal(b num) bool {
	ai, aok := a.asInt()
	bi, bok := b.asInt()
	if aok || bok {
		return aok && bok && ai == bi
	}
	return a.f == b.f
}

// String is canonical: equal numbers give equal strings.
func (a num) String() string {
	if i, ok := a.asInt(); ok {
		return strconv.FormatInt(i, 10)
	}
	return strconv.FormatFloat(a.f, 'g', -1, 64)
}

func (a num) float() float64 {
	if a.isInt {
		return float64(a.i)
	}
	return a.f
}
