//go:build !server

package main

import "testing"

// TestVerifyNoServer checks that a binary built without the server tag
// refuses --server before reading any input, and says how to install the
// one that has it.
func TestVerifyNoServer(t *testing.T) {
	checkRun(t, runCase{
		args: []string{"verify", "--server", "missing.yaml"},
		code: exitUsage,
		stderr: []string{
			"mut2cel verify: --server needs the apiserver, which this binary is built without; install the mut2cel that has it, from a clone of mut2cel, with\n" +
				"  go install -tags server ./cmd/mut2cel\n" +
				"Usage: mut2cel verify [flags] [PATH...] | --policy|--normalize --builtin GROUP/VERSION/KIND [--openapi FILE] [flags]\n",
		},
	})
}

// TestPolicyJudgesMissing checks that a binary without the admission-policy
// code (the default build; its tests give it the code, policyjudge_test.go)
// refuses --policy, --against-policy and --normalize before reading any
// input, and says how to install the one that has it.
func TestPolicyJudgesMissing(t *testing.T) {
	saved := policyJudges
	policyJudges = nil
	defer func() { policyJudges = saved }()
	for _, flag := range [][]string{{"--policy"}, {"--against-policy", "p.yaml"}, {"--normalize"}} {
		checkRun(t, runCase{
			args: append(append([]string{"verify"}, flag...), "missing.yaml"),
			code: exitUsage,
			stderr: []string{
				"mut2cel verify: --policy, --against-policy and --normalize run the apiserver's admission-policy code, which this binary is built without; install the mut2cel that has it, from a clone of mut2cel, with\n" +
					"  go install -tags server ./cmd/mut2cel\n",
			},
		})
	}
}
