package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/translate"
)

// TestKubeVersionEnv checks that $MUT2CEL_KUBE_VERSION is the default of
// --kube-version, that the flag wins, and that a bad value used as the
// default is a usage error naming the variable.
func TestKubeVersionEnv(t *testing.T) {
	v133 := translate.KubeVersion{Major: 1, Minor: 33}
	for _, c := range []struct {
		env  string
		args []string
		code int
		want translate.KubeVersion // with code 0
	}{
		{"", nil, exitOK, translate.DefaultKubeVersion},
		{"1.33", nil, exitOK, v133},
		{"v1.33", nil, exitOK, v133},
		{"1.33", []string{"--kube-version", "1.29"}, exitOK, translate.MinKubeVersion},
		{"1.2", []string{"--kube-version=1.33"}, exitOK, v133},
		{"1.2", nil, exitUsage, translate.KubeVersion{}},
		{"latest", nil, exitUsage, translate.KubeVersion{}},
	} {
		t.Setenv(kubeVersionEnv, c.env)
		lastOptions = translate.Options{}
		args := append(append([]string{"translate"}, c.args...), "testdata/crd.yaml")
		var stdout, stderr bytes.Buffer
		code := runWith(&env{stdout: &stdout, stderr: &stderr, translate: fakeTranslate}, args)
		if code != c.code || code == exitOK && runTarget(lastOptions) != c.want {
			t.Errorf("%s=%s run(%q) = %d, translated for %v; want %d, %v (%s)", kubeVersionEnv, c.env, args, code, runTarget(lastOptions), c.code, c.want, stderr.String())
		}
		if code == exitUsage && !strings.Contains(stderr.String(), "mut2cel translate: $"+kubeVersionEnv+": ") {
			t.Errorf("%s=%s run(%q) stderr = %q, want it to name the variable", kubeVersionEnv, c.env, args, stderr.String())
		}
	}
}

// runTarget is the version the options of a run ask for, where no
// declarations file or record in the CRD says one: the flag, given, is
// KubeVersion and wins over both; else $MUT2CEL_KUBE_VERSION or the
// default stands, as FallbackKubeVersion, where they say nothing.
func runTarget(o translate.Options) translate.KubeVersion {
	if !o.KubeVersion.IsZero() {
		return o.KubeVersion
	}
	return o.FallbackKubeVersion
}

// TestKubeVersionDeclaredOnce checks that every command with
// --kube-version declares it alike, with the variable as its default.
func TestKubeVersionDeclaredOnce(t *testing.T) {
	t.Setenv(kubeVersionEnv, "1.34")
	want := translateCommand.flags().Lookup("kube-version")
	for _, c := range commands {
		f := c.flags().Lookup("kube-version")
		if f == nil {
			continue
		}
		if f.Usage != want.Usage || f.DefValue != "1.34" {
			t.Errorf("%s --kube-version: usage %q, default %s; want %q, 1.34", c.name, f.Usage, f.DefValue, want.Usage)
		}
	}
}
