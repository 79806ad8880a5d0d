package plan

import "fmt"

// KubeVersion is a Kubernetes minor release. The compiler says which
// ones it supports (translate.ParseKubeVersion).
type KubeVersion struct{ Major, Minor int }

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
