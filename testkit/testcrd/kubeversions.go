package testcrd

import (
	"os"
	"testing"

	"github.com/mut2cel/mut2cel/plan"
)

// KubeVersionsEnv names the Kubernetes version a test run is narrowed
// to: MUT2CEL_TEST_KUBE=1.33 go test ./translate runs the tables that
// sweep targets at 1.33 only, to chase a failure at one target.
const KubeVersionsEnv = "MUT2CEL_TEST_KUBE"

// KubeVersions are the targets a table that sweeps them runs at: every
// supported one (plan.AllKubeVersions) in the full suite; under -short
// the oldest, 1.33, where rules on list items change shape, and the
// newest; the one of $MUT2CEL_TEST_KUBE when set.
func KubeVersions(tb testing.TB) []plan.KubeVersion {
	tb.Helper()
	if s := os.Getenv(KubeVersionsEnv); s != "" {
		v, err := plan.ParseKubeVersion(s)
		if err != nil {
			tb.Fatalf("$%s: %v", KubeVersionsEnv, err)
		}
		return []plan.KubeVersion{v}
	}
	if testing.Short() {
		return []plan.KubeVersion{plan.MinKubeVersion, {Major: 1, Minor: 33}, plan.MaxKubeVersion}
	}
	return plan.AllKubeVersions()
}
