package batch

import (
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/internal/diag"
)

// TestWithFlagHints: each hint a library may set gets the words of its
// flag at the end of the detail, once; a diagnostic without a hint is
// left as it is.
func TestWithFlagHints(t *testing.T) {
	for _, tc := range []struct {
		hint diag.Hint
		flag string
	}{
		{diag.HintAllVersions, "--all-versions"},
		{diag.HintBounds, "--no-bounds"},
		{diag.HintBoundCeilings, "--max-length"},
		{diag.HintBoundFloor, "--bound-floor"},
		{diag.HintKubeVersion, "--kube-version"},
		{diag.HintIndexBound, "--bound-floor PATH:maxItems=N); or target Kubernetes 1.33 with --kube-version"},
	} {
		in := []Diagnostic{{Detail: "do this", Hint: tc.hint}, {Detail: "plain"}}
		out := WithFlagHints(in)
		if !strings.HasPrefix(out[0].Detail, "do this") || !strings.Contains(out[0].Detail, tc.flag) || out[0].Hint != "" {
			t.Errorf("WithFlagHints(hint %s) = %+v, want the detail followed by %s, the hint consumed", tc.hint, out[0], tc.flag)
		}
		if again := WithFlagHints(out); again[0].Detail != out[0].Detail {
			t.Errorf("WithFlagHints twice (hint %s) = %q, want %q", tc.hint, again[0].Detail, out[0].Detail)
		}
		if out[1].Detail != "plain" || in[0].Detail != "do this" {
			t.Errorf("WithFlagHints changed %+v or its input %+v", out[1], in[0])
		}
	}
}
