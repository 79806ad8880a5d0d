package plan

import "fmt"

// KubeVersion is a Kubernetes minor release; the compiler says which ones
// it supports (translate.KubeVersion converts to it).
type KubeVersion struct{ Major, Minor int }

func (v KubeVersion) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }
