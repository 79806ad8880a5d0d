package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// version is set at link time (-ldflags "-X main.version=v1.2.3"); it
// replaces the module version Go recorded in the binary.
var version = ""

var versionCommand = &command{
	name: "version", args: "", summary: "print the version of mut2cel",
	help: "Prints the version of mut2cel, the commit it was built from when the build\n" +
		"recorded one, and the Go version. \"mut2cel --version\" prints the same.\n",
	flags: noFlags("version"),
	run:   runVersion,
}

func runVersion(c *command, e *env, args []string) int {
	if code, done := c.noArgs(e, args); done {
		return code
	}
	fmt.Fprintln(e.stdout, versionLine())
	return exitOK
}

// versionLine describes the running binary.
func versionLine() string {
	info, _ := debug.ReadBuildInfo()
	if version != "" {
		var linked debug.BuildInfo
		if info != nil {
			linked = *info
		}
		linked.Main.Version = version
		info = &linked
	}
	return formatVersion(info)
}

// formatVersion renders build information as one line:
//
//	mut2cel v0.1.0, go1.26.8
//	mut2cel (devel) revision 1a2b3c4d5e6f (2026-11-22T20:13:00Z, modified), go1.26.8
//
// go build in a checkout records the commit (the vcs.* settings); go install
// pkg@version records the module version and no commit; go run and a build
// outside a module record no version, shown as "(devel)". info may be nil.
func formatVersion(info *debug.BuildInfo) string {
	v, goVersion, stamp := "(devel)", runtime.Version(), ""
	if info != nil {
		if info.Main.Version != "" {
			v = info.Main.Version
		}
		if info.GoVersion != "" {
			goVersion = info.GoVersion
		}
		stamp = vcsStamp(info.Settings)
	}
	return fmt.Sprintf("mut2cel %s%s, %s", v, stamp, goVersion)
}

// vcsStamp gives " revision R (TIME, modified)" from the vcs.* build
// settings, with R cut to 12 characters as in Go's pseudo-versions, or ""
// when the build recorded no revision.
func vcsStamp(settings []debug.BuildSetting) string {
	vcs := map[string]string{}
	for _, s := range settings {
		vcs[s.Key] = s.Value
	}
	rev := vcs["vcs.revision"]
	if rev == "" {
		return ""
	}
	rev = rev[:min(len(rev), 12)]
	var details []string
	if t := vcs["vcs.time"]; t != "" {
		details = append(details, t)
	}
	if vcs["vcs.modified"] == "true" {
		details = append(details, "modified")
	}
	if len(details) == 0 {
		return " revision " + rev
	}
	return fmt.Sprintf(" revision %s (%s)", rev, strings.Join(details, ", "))
}
