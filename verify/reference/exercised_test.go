package reference

import (
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
)

// exerciseSchema has a declaration of each extension, and a narrowing one
// on map values, which is reported at the values schema (the schema of
// TestCauseKey in verify).
const exerciseSchema = `
type: object
properties:
  spec:
    type: object
    properties:
      class: {type: string, x-kubernetes-mutability: Immutable}
      labels:
        type: object
        x-kubernetes-key-mutability: RemoveOnly
        additionalProperties: {type: string, x-kubernetes-mutability: AddOnly}`

// TestExercised pins which declarations an update exercises: a rule of
// theirs applied, broken or not, to a position that exists on one side at
// least; the scope of properties is the root, which always exists.
func TestExercised(t *testing.T) {
	c := mustChecker(t, exerciseSchema)
	class := ".spec.class " + extMutability
	keys := ".spec.labels " + extKeyMutability
	values := ".spec.labels[*] " + extMutability
	for _, tc := range []struct {
		old, new string
		want     string
	}{
		{`{}`, `{}`, ""},
		{`{spec: {class: a}}`, `{spec: {class: a}}`, class},
		{`{spec: {class: a}}`, `{}`, class},
		{`{spec: {}}`, `{spec: {class: a}}`, class},
		{`{spec: {labels: {a: "1"}}}`, `{spec: {labels: {a: "1"}}}`, keys + ", " + values},
		{`{spec: {labels: {a: "1"}}}`, `{spec: {}}`, keys + ", " + values},
		{`{spec: {labels: {a: "1"}}}`, `{}`, keys + ", " + values},
	} {
		_, got, _ := c.CheckExercised(testcrd.Decode(t, tc.old), testcrd.Decode(t, tc.new))
		var names []string
		for _, d := range got {
			names = append(names, d.Path+" "+d.Extension)
		}
		if s := strings.Join(names, ", "); s != tc.want {
			t.Errorf("CheckExercised(%s -> %s) = %s, want %s", tc.old, tc.new, s, tc.want)
		}
	}
}
