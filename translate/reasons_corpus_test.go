package translate_test

import (
	"errors"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/translate"
)

// TestEveryReasonOnRealCRDs translates declarations of the corpus that
// each used to be refused one reason per run, and checks that one run
// names every reason: each problem must hold exactly the reasons wanted
// of it (checkReasons). It skips, saying where it looked, without the
// corpus.
func TestEveryReasonOnRealCRDs(t *testing.T) {
	corpus.Dir(t)
	v131, v133 := translate.KubeVersion{Major: 1, Minor: 31}, translate.KubeVersion{Major: 1, Minor: 33}
	immutable := map[string]interface{}{"x-kubernetes-mutability": "Immutable"}
	knative := corpus.Case{File: "knative-serving/revision.yaml", Declarations: map[string]map[string]map[string]interface{}{"v1": {".spec.containers": immutable}}}
	unknownFields := []string{
		"the value at spec.containers[*].env[*].valueFrom.fieldRef keeps unknown fields",
		"the value at spec.containers[*].env[*].valueFrom.resourceFieldRef keeps unknown fields",
	}
	timeAdded := []string{
		"the value at spec.startupTaints[*].timeAdded is a string with format date-time",
		"the value at spec.taints[*].timeAdded is a string with format date-time",
	}
	restartPolicyRules := []string{
		"rule on .spec.podSets[*].template.spec.containers[*].restartPolicyRules costs",
		"rule on .spec.podSets[*].template.spec.ephemeralContainers[*].restartPolicyRules costs",
		"rule on .spec.podSets[*].template.spec.initContainers[*].restartPolicyRules costs",
	}
	cases := []struct {
		name string
		c    corpus.Case
		opts translate.Options
		// want lists the reasons of each problem, in the order of the
		// problems.
		want [][]string
	}{{
		name: "knative containers at 1.31", c: knative, opts: translate.Options{KubeVersion: v131},
		want: [][]string{append([]string{"comparing the items of spec.containers index by index needs two-variable comprehensions, which new CRD rules can use from Kubernetes 1.33"}, unknownFields...)},
	}, {
		name: "knative containers at 1.33", c: knative, opts: translate.Options{KubeVersion: v133},
		want: [][]string{unknownFields},
	}, {
		name: "karpenter nodeclaim spec at 1.31",
		c:    corpus.Case{File: "karpenter/karpenter.sh_nodeclaims.yaml", Declarations: map[string]map[string]map[string]interface{}{"v1": {".spec": immutable}}},
		opts: translate.Options{KubeVersion: v131},
		// Both lists need 1.33: one reason says so.
		want: [][]string{append([]string{
			"comparing the items of spec.startupTaints and spec.taints index by index needs two-variable comprehensions, which new CRD rules can use from Kubernetes 1.33",
		}, timeAdded...)},
	}, {
		name: "kueue podSets at 1.33",
		c:    corpus.Case{File: "kueue/kueue.x-k8s.io_workloads.yaml", Declarations: map[string]map[string]map[string]interface{}{"v1beta2": {".spec.podSets[*]": immutable}}},
		opts: translate.Options{KubeVersion: v133, AllServedVersions: true},
		want: [][]string{restartPolicyRules, restartPolicyRules}, // v1beta1, which gets a copy, and v1beta2
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := translate.Translate(c.c.Declared(t), c.opts)
			var terr *translate.Error
			if !errors.As(err, &terr) || len(terr.Problems) != len(c.want) {
				t.Fatalf("Translate(%s) = %v, want %d problems", c.name, err, len(c.want))
			}
			for i, p := range terr.Problems {
				checkReasons(t, c.name, problemReasons(p), c.want[i])
			}
		})
	}
}
