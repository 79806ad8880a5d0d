package plan

import (
	"fmt"
	"strconv"
	"strings"
)

// KubeVersion is a Kubernetes minor release: the oldest one a plan's
// output must work on, 1.29 through 1.37.
type KubeVersion struct{ Major, Minor int }

// Supported range of target versions. Below 1.29 the CEL environment lacks
// reason and fieldPath handling that generated rules rely on; 1.37 is the
// newest release whose apiserver code mut2cel is built with.
var (
	MinKubeVersion     = KubeVersion{1, 29}
	MaxKubeVersion     = KubeVersion{1, 37}
	DefaultKubeVersion = KubeVersion{1, 31}
)

// ParseKubeVersion reads "1.31" (a leading "v" is accepted).
func ParseKubeVersion(s string) (KubeVersion, error) {
	major, minor, ok := strings.Cut(strings.TrimPrefix(s, "v"), ".")
	ma, err1 := strconv.Atoi(major)
	mi, err2 := strconv.Atoi(minor)
	if !ok || err1 != nil || err2 != nil {
		return KubeVersion{}, fmt.Errorf("invalid Kubernetes version %q: want MAJOR.MINOR, e.g. %s", s, DefaultKubeVersion)
	}
	v := KubeVersion{ma, mi}
	if v.Less(MinKubeVersion) || MaxKubeVersion.Less(v) {
		return KubeVersion{}, fmt.Errorf("Kubernetes version %s is not supported: use %s through %s", v, MinKubeVersion, MaxKubeVersion)
	}
	return v, nil
}

func (v KubeVersion) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// Less orders versions.
func (v KubeVersion) Less(o KubeVersion) bool {
	if v.Major != o.Major {
		return v.Major < o.Major
	}
	return v.Minor < o.Minor
}

// IsZero reports whether v is unset.
func (v KubeVersion) IsZero() bool { return v == KubeVersion{} }

// AllKubeVersions lists every supported target version, oldest first.
func AllKubeVersions() []KubeVersion {
	var out []KubeVersion
	for m := MinKubeVersion.Minor; m <= MaxKubeVersion.Minor; m++ {
		out = append(out, KubeVersion{1, m})
	}
	return out
}
