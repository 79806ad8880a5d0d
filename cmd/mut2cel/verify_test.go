package main

import (
	"testing"
)

const brokenSet = "../../testdata/broken/set-order-ignored/"

func TestVerify(t *testing.T) {
	for _, c := range []runCase{{
		name: "translation of an example", args: []string{"verify", "-q", "--pairs", "300", "../../examples/ports.yaml"},
		stdout: "verify-ports.golden",
	}, {
		name: "broken translation", args: []string{"verify", "-q", "--pairs", "300", "--against", brokenSet + "translated.yaml", brokenSet + "declared.yaml"},
		code: exitFinding, stdout: "verify-broken.golden",
		stderr: []string{"mut2cel verify: 42 disagreements in 300 pairs"},
	}, {
		name: "seed changes the pairs", args: []string{"verify", "-q", "--jobs", "1", "--pairs", "300", "--seed", "7", "--against", brokenSet + "translated.yaml", brokenSet + "declared.yaml"},
		code: exitFinding, stdout: "verify-broken-seed.golden",
		stderr: []string{"mut2cel verify: 45 disagreements in 300 pairs"},
	}, {
		// Declarations written in the annotation by hand, never
		// translated: verify checks mut2cel's translation, not the rules
		// the file has (none).
		name: "declarations only in the annotation", args: []string{"verify", "-q", "--pairs", "200", "testdata/annotated.yaml"},
		stdout: "verify-annotated.golden",
	}, {
		name: "other documents and CRDs without declarations are skipped", args: []string{"verify", "-q", "--pairs", "200", "testdata/configmap.yaml", "testdata/cost/handwritten.yaml", "testdata/annotated.yaml"},
		stdout: "verify-annotated.golden",
		stderr: []string{"testdata/configmap.yaml: 1 document is not a CustomResourceDefinition (kind: ConfigMap)"},
	}, {
		// Nothing to check is not a check passed: after controller-gen
		// rewrote the files and the mut2cel step was forgotten, verify
		// in CI must fail.
		name: "no declarations", args: []string{"verify", "-q", "testdata/configmap.yaml", "testdata/cost/handwritten.yaml"},
		code: exitError,
		stderr: []string{
			"testdata/configmap.yaml: 1 document is not a CustomResourceDefinition (kind: ConfigMap)",
			"no declarations in testdata/configmap.yaml, testdata/cost/handwritten.yaml: declare some in the CRD schemas (x-kubernetes-mutability, x-kubernetes-key-mutability, x-kubernetes-update or x-kubernetes-unions) or in the mut2cel.io/declarations annotation, or give --declarations",
		},
	}, {
		name: "no CRD", args: []string{"verify", "-q", "testdata/configmap.yaml"},
		code: exitError,
		stderr: []string{
			"testdata/configmap.yaml: 1 document is not a CustomResourceDefinition (kind: ConfigMap)",
			"no CustomResourceDefinition found in testdata/configmap.yaml",
		},
	}, {
		name: "progress", args: []string{"verify", "--pairs", "1000", "../../examples/ports.yaml"}, terminal: true,
		stdout: "gateways.networking.example.com v1: 1000 pairs, 1000 judged, no disagreement",
		stderr: []string{"mut2cel verify: gateways.networking.example.com v1: 500/1000 pairs, ", " pairs/s, 0 disagreements"},
	}, {
		name: "no namesake in --against", args: []string{"verify", "-q", "--against", "../../examples/ports.yaml", brokenSet + "declared.yaml"},
		code:   exitError,
		stderr: []string{`../../testdata/broken/set-order-ignored/declared.yaml:1: document 1 (CustomResourceDefinition/buckets.example.com): no CRD named "buckets.example.com" in ../../examples/ports.yaml`},
	}, {
		name: "declarations that cannot be translated", args: []string{"verify", "-q", "testdata/bad-crd.yaml"},
		code: exitError,
		stderr: []string{"testdata/bad-crd.yaml: 1 document is not a CustomResourceDefinition (kind: ConfigMap)",
			`testdata/bad-crd.yaml:5: document 2 (CustomResourceDefinition/gadgets.example.com): cannot be translated, so there is nothing to verify: 2 problems:`,
			`properties[a].x-kubernetes-mutability: Unsupported value: "Sometimes"`, `properties[b].x-kubernetes-mutability: Unsupported value: "Never"`},
	}, {
		name: "rules that do not compile for --kube-version", args: []string{"verify", "-q", "--kube-version", "1.29", "--against", "../../testdata/golden/1.33/jobset.yaml", "../../examples/jobset.yaml"},
		code:   exitError,
		stderr: []string{`does not compile for Kubernetes 1.29`}, moreStderr: true,
	}, {
		name: "missing input", args: []string{"verify", "-q", "missing.yaml"},
		code: exitError, stderr: []string{"missing.yaml: no such file or directory"},
	}, {
		name: "bad pairs", args: []string{"verify", "--pairs", "0"},
		code: exitUsage, stderr: []string{"mut2cel verify: --pairs and --jobs must be positive and --counterexamples not negative, got 0, ", "Usage: mut2cel verify [flags] [PATH...]"},
	}, {
		name: "a rewritten file is checked as it is, against its annotation", args: []string{"verify", "-q", "--pairs", "300", "../../examples/translated/gatewayclass.yaml"},
		stdout: "gatewayclasses.networking.example.com v1: 300 pairs, 300 judged, no disagreement",
	}, {
		name: "a rewritten file whose annotation gained a declaration", args: []string{"verify", "-q", "--pairs", "300", "testdata/stale-rewrite.yaml"},
		code: exitFinding, stdout: "verify-stale-rewrite.golden",
		stderr: []string{"mut2cel verify: 101 disagreements in 300 pairs"},
	}, {
		name: "a declaration no pair exercised fails the run", args: []string{"verify", "-q", "--pairs", "300", "testdata/unexercised.yaml"},
		code:   exitFinding,
		stdout: "verify-unexercised.golden",
		stderr: []string{"mut2cel verify: 1 declaration was exercised by no pair, so its rules went unchecked",
			"mut2cel verify: 3 constraints were broken by no judged pair, so the rules that enforce them went unchecked"},
	}, {
		name: "help", args: []string{"help", "verify"},
		stdout: "Usage: mut2cel verify [flags] [PATH...]",
	}} {
		t.Run(c.name, func(t *testing.T) { checkRun(t, c) })
	}
}
