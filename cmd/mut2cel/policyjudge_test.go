package main

import "github.com/mut2cel/mut2cel/driver/policyjudge"

// The tests run verify --policy, --against-policy and --normalize in
// process, as the binary built with the server tag does
// (verifyserver.go): the command's tests hold the feature, and
// TestNoServerDeps keeps the admission code out of the default binary,
// whose refusal TestPolicyJudgesMissing checks.
func init() {
	if policyJudges == nil {
		policyJudges = policyjudge.InProcess{}
	}
}
