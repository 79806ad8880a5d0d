package main

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestFormatVersion(t *testing.T) {
	const rev = "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"
	vcs := func(kv ...string) []debug.BuildSetting {
		s := []debug.BuildSetting{{Key: "GOOS", Value: "linux"}, {Key: "vcs", Value: "git"}}
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	for _, c := range []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"release", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.1.0"}},
			"mut2cel v0.1.0, go1.26.8"},
		{"checkout with changes", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: vcs("vcs.revision", rev, "vcs.time", "2026-11-22T20:13:00Z", "vcs.modified", "true")},
			"mut2cel (devel) revision 1a2b3c4d5e6f (2026-11-22T20:13:00Z, modified), go1.26.8"},
		{"clean checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.1.0"},
			Settings: vcs("vcs.revision", rev, "vcs.time", "2026-11-22T20:13:00Z", "vcs.modified", "false")},
			"mut2cel v0.1.0 revision 1a2b3c4d5e6f (2026-11-22T20:13:00Z), go1.26.8"},
		{"revision only", &debug.BuildInfo{GoVersion: "go1.26.8", Settings: vcs("vcs.revision", "abc")},
			"mut2cel (devel) revision abc, go1.26.8"},
		{"time without revision", &debug.BuildInfo{GoVersion: "go1.26.8", Settings: vcs("vcs.time", "2026-11-22T20:13:00Z")},
			"mut2cel (devel), go1.26.8"},
		{"no module version", &debug.BuildInfo{GoVersion: "go1.26.8"}, "mut2cel (devel), go1.26.8"},
		{"no build information", nil, "mut2cel (devel), " + runtime.Version()},
	} {
		if got := formatVersion(c.info); got != c.want {
			t.Errorf("%s: formatVersion(%+v) = %q, want %q", c.name, c.info, got, c.want)
		}
	}
}

func TestVersionLinked(t *testing.T) {
	defer func(v string) { version = v }(version)
	version = "v1.2.3"
	if got := versionLine(); !strings.HasPrefix(got, "mut2cel v1.2.3") || !strings.Contains(got, "go1.") {
		t.Errorf("versionLine() with -X main.version=v1.2.3 = %q, want the linked version and the Go version", got)
	}
}

// TestVersionFlag checks that --version and the version command print the
// same line, and never a bare "(devel)": the test binary has no VCS stamp.
func TestVersionFlag(t *testing.T) {
	var outs []string
	for _, args := range [][]string{{"version"}, {"--version"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, nil, &stdout, &stderr); code != exitOK || stderr.Len() > 0 {
			t.Fatalf("run(%q) = %d, stderr %q; want 0 and nothing", args, code, stderr.String())
		}
		outs = append(outs, stdout.String())
	}
	if want := versionLine() + "\n"; outs[0] != want || outs[1] != want {
		t.Errorf("version printed %q, --version %q; want both %q", outs[0], outs[1], want)
	}
	if !strings.Contains(outs[0], ", go1.") {
		t.Errorf("version printed %q, want the Go version in it", outs[0])
	}
}
