package reference

import (
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
)

// TestCheckFormatsAsValues: the checker's own verdicts under the opt-in
// (semantics.md 8), per declaration and run-wide.
func TestCheckFormatsAsValues(t *testing.T) {
	const modified = `
type: object
properties:
  spec:
    type: object
    x-kubernetes-mutability: Immutable
    x-mut2cel-formats: CompareAsValues
    properties:
      at: {type: string, format: date-time}
      ttl: {type: string, format: duration}
      key: {type: string, format: byte}
  strict:
    type: object
    x-kubernetes-update: [NoModify]
    properties:
      ttl: {type: string, format: duration}`
	c := mustChecker(t, modified)
	for _, tc := range []struct {
		old, new string
		want     string // a substring of the violations, "" for none
	}{
		{`{spec: {at: "2024-05-01T10:00:00Z"}}`, `{spec: {at: "2024-05-01T12:00:00+02:00"}}`, ""},
		{`{spec: {ttl: 1h}}`, `{spec: {ttl: "60 minutes"}}`, ""},
		{`{spec: {key: YQ==}}`, `{spec: {key: YR==}}`, ""},
		{`{spec: {key: YQ==}}`, `{spec: {key: Yg==}}`, "value changed"},
		{`{spec: {key: "+/8="}}`, `{spec: {key: "+/8="}}`, "cannot read"},
		{`{strict: {ttl: 1h}}`, `{strict: {ttl: 60m}}`, "NoModify: changed"},
	} {
		got := check(t, c, tc.old, tc.new)
		text := ""
		for _, v := range got {
			text += v.String() + "\n"
		}
		if (tc.want == "") != (len(got) == 0) || !strings.Contains(text, tc.want) {
			t.Errorf("Check(%s, %s) = %v, want %q", tc.old, tc.new, got, tc.want)
		}
	}
	c.CompareFormatsAsValues()
	if got := check(t, c, `{strict: {ttl: 1h}}`, `{strict: {ttl: 60m}}`); len(got) != 0 {
		t.Errorf("run-wide: Check(1h, 60m) = %v, want none", got)
	}
}

// TestFormatsModifierErrors: the modifier's own errors in the checker.
func TestFormatsModifierErrors(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{type: object, properties: {a: {type: string, x-kubernetes-mutability: Immutable, x-mut2cel-formats: Always}}}`, `Unsupported value: "Always"`},
		{`{type: object, properties: {a: {type: string, x-mut2cel-formats: CompareAsValues}}}`, "modifies the declarations beside it"},
		{`{type: object, x-kubernetes-update: [NoModify], x-mut2cel-formats: CompareAsValues}`, "x-mut2cel-formats: Forbidden: must not be set on the schema root"},
	} {
		_, err := NewChecker(testcrd.Decode(t, tc.schema))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewChecker(%s) = %v, want an error containing %q", tc.schema, err, tc.want)
		}
	}
}
