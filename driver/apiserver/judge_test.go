package apiserver

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"sync"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/verify"
)

// judgedSchema has rules on the spec and on the status; the CRD has a
// status subresource, which the judge must not let keep the old status.
const judgedSchema = `
type: object
properties:
  spec:
    type: object
    properties:
      name: {type: string, maxLength: 8, x-kubernetes-validations: [{rule: self == oldSelf, message: name is immutable}]}
      count: {type: integer, x-kubernetes-validations: [{rule: self == oldSelf, message: count is immutable}]}
      ratio: {type: number}
  status:
    type: object
    properties:
      phase: {type: string, x-kubernetes-validations: [{rule: "oldSelf != 'Done' || self == 'Done'", message: Done is final}]}
`

var (
	judgedOnce  sync.Once
	sharedJudge verify.Judge
	inProcess   *kube.RuleValidator
)

// judged installs judgedSchema on the shared server, once, and returns its
// judge and, to compare with, the apiserver's CEL validator in process.
// The tests share it: installing costs seconds, and a judge is safe for
// concurrent use.
func judged(t *testing.T) (verify.Judge, *kube.RuleValidator) {
	t.Helper()
	judgedOnce.Do(func() { sharedJudge, inProcess = newJudged(t) })
	if sharedJudge == nil {
		t.Fatal("no judge: installing the CRD failed")
	}
	return sharedJudge, inProcess
}

func newJudged(t *testing.T) (verify.Judge, *kube.RuleValidator) {
	t.Helper()
	doc := testcrd.WithSchema(t, judgedSchema)
	spec := doc["spec"].(map[string]interface{})
	v := spec["versions"].([]interface{})[0].(map[string]interface{})
	v["subresources"] = map[string]interface{}{"status": map[string]interface{}{}}
	props := v["schema"].(map[string]interface{})["openAPIV3Schema"]
	s := structural(t, props.(map[string]interface{}))
	j, err := shared.NewJudge(verify.Target{CRD: doc, Version: "v1", Schema: s})
	if err != nil {
		t.Errorf("NewJudge: %v", err)
		return nil, nil
	}
	return j, kube.NewRuleValidator(s)
}

// stored decodes an object written as YAML as storage returns it.
func stored(t *testing.T, text string) map[string]interface{} {
	t.Helper()
	var m map[string]interface{}
	if err := yaml.Unmarshal([]byte(text), &m); err != nil {
		t.Fatal(err)
	}
	out, err := kube.RoundTrip(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// local is the in-process verdict on a pair, as the verifier's default
// judge gives it.
func local(v *kube.RuleValidator, old, new map[string]interface{}) (bool, []string) {
	var detail []string
	for _, e := range v.Validate(new, old) {
		detail = append(detail, e.Error())
	}
	sort.Strings(detail)
	return len(detail) > 0, detail
}

// TestJudge checks the server's verdicts against the CEL validator in
// process, and that pairs the server refuses on other grounds than the
// rules are reported as ErrInvalidPair.
func TestJudge(t *testing.T) {
	t.Parallel()
	j, v := judged(t)
	for _, c := range []struct {
		what, old, new  string
		denied, invalid bool
	}{
		{what: "no change", old: `{spec: {name: a, count: 1}}`, new: `{spec: {name: a, count: 1}}`},
		{what: "an unconstrained field changes", old: `{spec: {ratio: 0.5}}`, new: `{spec: {ratio: 1.5}}`},
		{what: "a field is added", old: `{spec: {}}`, new: `{spec: {name: a}}`},
		{what: "an immutable field changes", old: `{spec: {name: a}}`, new: `{spec: {name: b}}`, denied: true},
		{what: "two fields change", old: `{spec: {name: a, count: 1}}`, new: `{spec: {name: b, count: 2}}`, denied: true},
		{what: "the status changes, as the rules allow", old: `{status: {phase: Running}}`, new: `{status: {phase: Done}}`},
		{what: "the status changes, as the rules forbid", old: `{status: {phase: Done}}`, new: `{status: {phase: Running}}`, denied: true},
		{what: "a number sent as 1.0", old: `{spec: {ratio: 1}}`, new: `{spec: {ratio: 1.0}}`},
		{what: "the new object fails the schema", old: `{spec: {name: a}}`, new: `{spec: {name: far-too-long}}`, invalid: true},
		{what: "the new object fails the schema and a rule", old: `{spec: {name: a, count: 1}}`, new: `{spec: {name: far-too-long, count: 2}}`, invalid: true},
		{what: "the old object fails the schema", old: `{spec: {name: far-too-long}}`, new: `{spec: {name: a}}`, invalid: true},
	} {
		old, new := stored(t, c.old), stored(t, c.new)
		denied, detail, err := j.Update(old, new)
		if c.invalid {
			if !errors.Is(err, verify.ErrInvalidPair) {
				t.Errorf("%s: Update(%s, %s) = %v, %q, %v; want ErrInvalidPair", c.what, c.old, c.new, denied, detail, err)
			}
			continue
		}
		wantDenied, wantDetail := local(v, old, new)
		if err != nil || denied != c.denied || denied != wantDenied || !reflect.DeepEqual(detail, wantDetail) {
			t.Errorf("%s: Update(%s, %s) = %v, %q, %v; want %v, %q (in process %v)", c.what, c.old, c.new, denied, detail, err, c.denied, wantDetail, wantDenied)
		}
	}
}

// TestJudgeIntegerSentAsFloat checks that an integral float where the
// schema says integer reaches the server as a float: the rule then fails
// to evaluate, as in process, instead of seeing an unchanged integer.
func TestJudgeIntegerSentAsFloat(t *testing.T) {
	t.Parallel()
	j, v := judged(t)
	old := stored(t, `{spec: {count: 1}}`)
	new := map[string]interface{}{"spec": map[string]interface{}{"count": float64(1)}}
	denied, detail, err := j.Update(old, new)
	wantDenied, wantDetail := local(v, old, new)
	if err != nil || denied != wantDenied || !reflect.DeepEqual(detail, wantDetail) || !denied {
		t.Errorf("Update(count 1 -> 1.0) = %v, %q, %v; want %v, %q", denied, detail, err, wantDenied, wantDetail)
	}
}

// TestJudgeConcurrently judges pairs from several goroutines at once, as
// verify does with more than one worker.
func TestJudgeConcurrently(t *testing.T) {
	t.Parallel()
	j, _ := judged(t)
	const workers, pairs = 4, 25
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < pairs; i++ {
				change := i%2 == 0
				newName := "a"
				if change {
					newName = fmt.Sprint("b", w)
				}
				denied, _, err := j.Update(stored(t, `{spec: {name: a}}`), stored(t, fmt.Sprintf(`{spec: {name: %s}}`, newName)))
				if err != nil || denied != change {
					t.Errorf("worker %d, pair %d: denied %v, err %v; want denied %v", w, i, denied, err, change)
				}
			}
		}()
	}
	wg.Wait()
}

// gatewayClasses is a CRD of a protected group (KEP 1111) from the corpus:
// its upstream rules make spec.controllerName immutable.
var gatewayClasses = corpus.Case{File: "gateway-api/standard/gateway.networking.k8s.io_gatewayclasses.yaml"}

// TestJudgeProtectedGroup installs a CRD of the protected group
// gateway.networking.k8s.io, which the server accepts only with its
// api-approved.kubernetes.io annotation, and checks a few verdicts against
// the CEL validator in process.
func TestJudgeProtectedGroup(t *testing.T) {
	t.Parallel()
	doc := gatewayClasses.Declared(t)
	v := doc["spec"].(map[string]interface{})["versions"].([]interface{})[0].(map[string]interface{})
	if v["name"] != "v1" {
		t.Fatalf("the first version of %s is %v, want v1", gatewayClasses.File, v["name"])
	}
	s := structural(t, v["schema"].(map[string]interface{})["openAPIV3Schema"].(map[string]interface{}))
	j, err := shared.NewJudge(verify.Target{CRD: doc, Version: "v1", Schema: s})
	if err != nil {
		t.Fatalf("NewJudge(%s v1): %v", gatewayClasses.File, err)
	}
	rules := kube.NewRuleValidator(s)
	for _, c := range []struct {
		old, new string
		denied   bool
	}{
		{old: `{spec: {controllerName: example.com/a}}`, new: `{spec: {controllerName: example.com/a, description: d}}`},
		{old: `{spec: {controllerName: example.com/a}}`, new: `{spec: {controllerName: example.com/b}}`, denied: true},
	} {
		old, new := stored(t, c.old), stored(t, c.new)
		denied, detail, err := j.Update(old, new)
		wantDenied, wantDetail := local(rules, old, new)
		if err != nil || denied != c.denied || denied != wantDenied || !reflect.DeepEqual(detail, wantDetail) {
			t.Errorf("Update(%s, %s) = %v, %q, %v; want %v, %q (in process %v)", c.old, c.new, denied, detail, err, c.denied, wantDetail, wantDenied)
		}
	}
}
