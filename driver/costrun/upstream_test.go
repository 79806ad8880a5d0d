package costrun_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/driver/costrun"
)

// TestUpstream audits a CRD whose generated rule and hand-written rule
// both cross a runtime limit: only the hand-written rule's findings are
// upstream's, in the report and in its text, so that they are not read
// as findings about the declarations.
func TestUpstream(t *testing.T) {
	doc := crd("Widget", v1(`type: object
properties:
  spec:
    type: object
    properties:
      finalizers:
        type: array
        x-kubernetes-list-type: set
        x-kubernetes-key-mutability: AddOnly
        items: {type: string}
      hosts:
        type: array
        maxItems: 100
        items: {type: string, maxLength: 500}
        x-kubernetes-validations:
        - rule: self.all(x, self.all(y, x == y))
`))
	got := document(t, doc)
	if !got.Declared {
		t.Errorf("Declared = false for a CRD with a declaration")
	}
	v := got.Versions[0]
	byNode := map[string]bool{} // node of each exceeded rule: upstream
	for _, x := range v.Exceeds {
		for _, r := range v.Rules {
			if r.Path == x.Path {
				byNode[r.Node] = x.Upstream
			}
		}
	}
	if up, ok := byNode[".spec.hosts"]; !ok || !up {
		t.Errorf("the hand-written rule on .spec.hosts: exceeded %t, upstream %t; want both (exceeds %+v)", ok, up, v.Exceeds)
	}
	if up, ok := byNode[".spec.finalizers"]; !ok || up {
		t.Errorf("the generated rule on .spec.finalizers: exceeded %t, upstream %t; want exceeded, not upstream (exceeds %+v)", ok, up, v.Exceeds)
	}
	for _, s := range v.Suggestions {
		if want := strings.Contains(s.Path, "hosts"); s.Upstream != want {
			t.Errorf("suggestion for %s: upstream %t, want %t", s.Path, s.Upstream, want)
		}
	}
	var text bytes.Buffer
	if err := costrun.WriteText(&text, &costrun.Report{KubeVersion: kubeVersion.String(), CRDs: []costrun.CRDCosts{*got}}); err != nil {
		t.Fatal(err)
	}
	out := strings.Join(strings.Fields(text.String()), " ")
	for _, want := range []string{"WARNING: upstream's rule 1 on .spec.hosts:", "WARNING: rule 1 on .spec.finalizers:"} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
}

// TestDeclared: a CRD without declarations is audited, and says so.
func TestDeclared(t *testing.T) {
	got := document(t, crd("Widget", v1(`type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: has(self.a)
    properties:
      a: {type: string}
`)))
	if got.Declared {
		t.Errorf("Declared = true for a CRD without declarations")
	}
}
