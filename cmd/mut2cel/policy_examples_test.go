package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/golden"
)

// TestPolicyExamples writes the policies of examples/policy, which the
// README and docs/policy.md show: a built-in Deployment, and the gateway
// of examples/ports.yaml as if an operator owned its CRD. go test
// -update rewrites them.
func TestPolicyExamples(t *testing.T) {
	for _, c := range []struct {
		args   []string
		golden string
	}{
		{[]string{"policy", "--builtin", "apps/v1/Deployment", "--declarations", "../../examples/policy/deployments.yaml",
			"--kube-version", "1.33", "--namespace-selector", "tenant", "--exempt-service-account", "kube-system:deployment-controller"},
			"../../examples/policy/deployments.policy.yaml"},
		{[]string{"policy", "--action", "Warn", "--action", "Audit", "../../examples/ports.yaml"}, "../../examples/policy/ports.policy.yaml"},
	} {
		t.Run(c.golden, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(c.args, strings.NewReader(""), &stdout, &stderr); code != exitOK {
				t.Fatalf("mut2cel %s: exit %d\n%s", strings.Join(c.args, " "), code, stderr.String())
			}
			golden.Check(t, c.golden, stdout.Bytes())
		})
	}
}
