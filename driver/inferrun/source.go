package inferrun

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/frontend/cluster"
	"github.com/mut2cel/mut2cel/manifest"
)

// Source says where the CRDs are read: files, or a live cluster.
type Source struct {
	// Paths are files and directories, "-" or none for Stdin, read as
	// every command reads its inputs (batch.Collect).
	Paths []string
	Stdin io.Reader
	// Cluster, when set, reads the CRDs a cluster serves instead.
	Cluster *Cluster
}

// Cluster is a live cluster and the CRDs to read of it.
type Cluster struct {
	Options   ClusterOptions
	Selection Selection
}

// ClusterOptions say how the cluster is reached (kubeconfig, context) and
// Selection which of its CRDs are read; the command fills them from its
// flags.
type (
	ClusterOptions = cluster.Options
	Selection      = cluster.Selection
)

// Read reads the CRDs of src: those of the files in input order, the
// other documents counted in a note an input (said through rep), or those
// of the cluster sorted by name. problems are the reasons the run cannot
// be done, every one of them: an input that cannot be read or holds no
// CRD, a cluster that cannot be read or has no CRD of the selection.
func Read(ctx context.Context, src Source, rep batch.Reporter) (crds []batch.InputCRD, problems []batch.Diagnostic) {
	if src.Cluster != nil {
		return readCluster(ctx, *src.Cluster)
	}
	loop := &batch.Loop{Paths: src.Paths, Stdin: src.Stdin, Reporter: rep}
	inputs := loop.Inputs()
	for i, in := range inputs {
		f, diags := batch.EachCRD(in, func(_ *manifest.Document, crd batch.InputCRD) error {
			crds = append(crds, crd)
			return nil
		})
		loop.Problems = append(loop.Problems, diags...)
		loop.Done(i, len(inputs), in, f)
	}
	loop.NoCRD()
	return crds, loop.Problems
}

// readCluster reads the selected CRDs of a cluster. A CRD is placed at
// its origin ("cluster kind-dev: customresourcedefinitions/<name>"),
// where a file's would be at its file and line.
func readCluster(ctx context.Context, c Cluster) ([]batch.InputCRD, []batch.Diagnostic) {
	r, err := cluster.Open(c.Options)
	if err != nil {
		return nil, []batch.Diagnostic{{Detail: err.Error()}}
	}
	read, err := r.CRDs(ctx, c.Selection)
	if err != nil {
		return nil, []batch.Diagnostic{{Detail: err.Error()}}
	}
	if len(read) == 0 {
		// Nothing read is not a cluster whose CRDs all keep their word.
		what := "no CRD"
		if len(c.Selection.Groups) > 0 {
			what = "no CRD of the groups " + strings.Join(c.Selection.Groups, ", ")
		}
		return nil, []batch.Diagnostic{{Detail: fmt.Sprintf("cluster %s: %s", r.Cluster, what)}}
	}
	crds := make([]batch.InputCRD, len(read))
	for i, c := range read {
		crds[i] = batch.InputCRD{At: batch.Diagnostic{File: c.Origin}, Value: c.Document}
	}
	return crds, nil
}
