package verify

import "testing"

// reportSchema declares every constraint once, and one node with a KEP
// value next to the constraints, so that attribution must tell them apart
// (the schema of verify/reference's update_report_test.go).
const reportSchema = `
type: object
properties:
  spec:
    type: object
    properties:
      class: {type: string, x-kubernetes-mutability: Immutable, x-kubernetes-update: [NoModify]}
      size: {type: integer, x-kubernetes-update: [NoSet, NoUnset]}
      l:
        type: array
        x-kubernetes-key-mutability: AddOnly
        x-kubernetes-update: [NoAddItem]
        items: {type: string}
      m:
        type: object
        x-kubernetes-update: [NoRemoveItem]
        additionalProperties: {type: string}`

// A missed violation is put down to the constraint that reports it, also
// on a node that carries a KEP value too.
func TestUpdateCauseKey(t *testing.T) {
	c := mustChecker(t, reportSchema)
	decls := c.Declarations()
	at := func(props ...string) string { return " at " + nodePath(append([]string{"spec"}, props...)...) }
	for _, tc := range []struct {
		old, new string
		want     string
	}{
		{`{spec: {class: a}}`, `{spec: {class: b}}`,
			"missed: value of x-kubernetes-mutability: Immutable" + at("class") + "; value of x-kubernetes-update: NoModify" + at("class")},
		{`{spec: {size: 1}}`, `{spec: {}}`, "missed: presence of x-kubernetes-update: NoUnset" + at("size")},
		{`{spec: {}}`, `{spec: {size: 1}}`, "missed: presence of x-kubernetes-update: NoSet" + at("size")},
		{`{spec: {l: [a]}}`, `{spec: {l: [b, c]}}`, "missed: keys of x-kubernetes-update: NoAddItem" + at("l")},
		{`{spec: {l: [a, c]}}`, `{spec: {l: [b]}}`, "missed: keys of x-kubernetes-key-mutability: AddOnly" + at("l")},
		{`{spec: {m: {a: x}}}`, `{}`, "missed: keys of x-kubernetes-update: NoRemoveItem" + at("m")},
	} {
		v := verdicts{outcome: disagreed, violations: check(t, c, tc.old, tc.new)}
		if got := causeOf(v, decls, nil, nil).Key(); got != tc.want {
			t.Errorf("causeOf(%s -> %s).Key() =\n%s\nwant\n%s", tc.old, tc.new, got, tc.want)
		}
	}
}
