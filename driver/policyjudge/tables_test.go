package policyjudge_test

import (
	"fmt"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiserver/pkg/admission"
	"sigs.k8s.io/yaml"

	crdmodel "github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/internal/admit"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// The verdict tables of the KEP examples and of the update vocabulary,
// through the policy path: each schema's declarations compiled, written as
// a validating policy, and every update of the table decided by the
// apiserver's admission-policy code, which must deny exactly what the table
// and the reference checker deny.

const (
	policyVerdictTable = "../../testdata/kep/examples.yaml"
	policyUpdateTable  = "../../testdata/update/constraints.yaml"
)

// policyVersions are the targets the tables run at through the policy
// path: the oldest and the first with two-variable comprehensions.
var policyVersions = []translate.KubeVersion{translate.MinKubeVersion, {Major: 1, Minor: 33}}

func TestPolicyKEPTable(t *testing.T) {
	v := testcrd.ReadVerdicts(t, policyVerdictTable)
	for _, ex := range append(v.KEP, v.Blog...) {
		for i := range ex.Values {
			letter := ex.Values[i]
			schemaJSON := ex.Schema(testcrd.ValueNames[letter])
			for _, kv := range policyVersions {
				t.Run(fmt.Sprintf("%s/%s/%s", ex.Name, testcrd.ValueNames[letter], kv), func(t *testing.T) {
					p := newTablePolicy(t, schemaJSON, kv)
					for _, tr := range ex.Transitions {
						p.check(t, tr.Old, tr.New, !tr.Allows(letter))
					}
				})
			}
		}
	}
}

func TestPolicyUpdateTable(t *testing.T) {
	for _, ex := range testcrd.ReadUpdateTable(t, policyUpdateTable) {
		for _, c := range ex.Combinations() {
			schemaJSON := ex.Schema(c)
			for _, kv := range policyVersions {
				t.Run(fmt.Sprintf("%s/%s/%s", ex.Name, c, kv), func(t *testing.T) {
					p := newTablePolicy(t, schemaJSON, kv)
					for _, tr := range ex.Transitions {
						p.check(t, tr.Old, tr.New, tr.Denies(c))
					}
				})
			}
		}
	}
}

// tablePolicy is the policy of a one-version CRD, its published schema,
// and the reference checker of its declarations.
type tablePolicy struct {
	eval    *admit.Validating
	s       *schema.Structural
	checker *reference.Checker
}

func newTablePolicy(t *testing.T, schemaJSON string, kv translate.KubeVersion) *tablePolicy {
	t.Helper()
	doc := testcrd.WithSchema(t, schemaJSON)
	ps := policiesFor(t, doc, translate.Options{KubeVersion: kv})
	c, err := crdmodel.Read(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) > 1 {
		t.Fatalf("%d policies, want at most one", len(ps))
	}
	// Declarations that need no rule (on items of sets, which exist before
	// and after only when unchanged) need no policy either.
	var eval *admit.Validating
	if len(ps) == 1 {
		var err error
		if eval, err = admit.NewValidating(ps[0].Policy); err != nil {
			t.Fatal(err)
		}
	}
	raw := c.Versions[0].Raw
	checker, err := reference.NewChecker(raw)
	if err != nil {
		t.Fatal(err)
	}
	props, err := crdmodel.TypedSchema(crdmodel.StripDeclarations(raw))
	if err != nil {
		t.Fatal(err)
	}
	s, err := kube.Structural(props)
	if err != nil {
		t.Fatal(err)
	}
	return &tablePolicy{eval: eval, s: s, checker: checker}
}

// check decides the update from oldYAML to newYAML, both taken through
// the storage pipeline, and requires the policy and the reference checker
// to deny it exactly when wantDeny, and every validation to evaluate.
func (p *tablePolicy) check(t *testing.T, oldYAML, newYAML string, wantDeny bool) {
	t.Helper()
	old, err := kube.RoundTrip(kube.Store(p.s, yamlObject(t, oldYAML)))
	if err != nil {
		t.Fatal(err)
	}
	nw := kube.Store(p.s, yamlObject(t, newYAML))
	var d admit.Decision
	if p.eval != nil {
		if d, err = p.eval.Validate(admit.Request{Operation: admission.Update, Object: nw, OldObject: old}); err != nil {
			t.Fatal(err)
		}
	}
	if len(d.Errors) > 0 {
		t.Errorf("update %s -> %s: a validation failed to evaluate: %v", oldYAML, newYAML, d.Errors)
	}
	if denied := len(d.Denied) > 0; denied != wantDeny {
		t.Errorf("update %s -> %s: policy denied=%v %v, want denied=%v", oldYAML, newYAML, denied, d.Denied, wantDeny)
	}
	if v := p.checker.Check(old, nw); (len(v) > 0) != wantDeny {
		t.Errorf("update %s -> %s: reference checker found %v, want denied=%v", oldYAML, newYAML, v, wantDeny)
	}
}

func yamlObject(t *testing.T, y string) map[string]interface{} {
	t.Helper()
	var obj map[string]interface{}
	if err := yaml.Unmarshal([]byte(y), &obj); err != nil {
		t.Fatal(err)
	}
	if obj == nil {
		obj = map[string]interface{}{}
	}
	return obj
}
