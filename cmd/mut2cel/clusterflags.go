package main

// The flags that read CRDs from a live cluster instead of files, as
// kubectl reaches it: infer and audit register them here.

import (
	"github.com/spf13/pflag"

	"github.com/mut2cel/mut2cel/driver/inferrun"
)

// clusterFlags are --cluster, --kubeconfig, --context and --group.
type clusterFlags struct {
	cluster             bool
	kubeconfig, context string
	groups              []string
}

func (c *clusterFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&c.cluster, "cluster", false, "read the CRDs a live cluster serves, with only GET requests, instead of files: those named as arguments, of --group, or all")
	fs.StringVar(&c.kubeconfig, "kubeconfig", "", "the kubeconfig file to reach the cluster with (implies --cluster; default: $KUBECONFIG, else ~/.kube/config, as kubectl)")
	fs.StringVar(&c.context, "context", "", "the kubeconfig context to use (implies --cluster; default: the current context)")
	fs.SetAnnotation("context", completeAnnotation, []string{completeFree})
	fs.StringArrayVar(&c.groups, "group", nil, "with --cluster, read the CRDs of this API group; repeatable")
	fs.SetAnnotation("group", completeAnnotation, []string{completeFree})
}

// source is where the command reads its CRDs: the arguments are files,
// or, from a cluster, CRD names. usage, when set, is a bad invocation.
func (c *clusterFlags) source(e *env, args []string) (src inferrun.Source, usage string) {
	if !c.cluster && c.kubeconfig == "" && c.context == "" {
		if len(c.groups) > 0 {
			return src, "--group selects CRDs of a cluster: give --cluster (or --kubeconfig or --context) too"
		}
		return inferrun.Source{Paths: args, Stdin: e.stdin}, ""
	}
	return inferrun.Source{Cluster: &inferrun.Cluster{
		Options:   inferrun.ClusterOptions{Kubeconfig: c.kubeconfig, Context: c.context},
		Selection: inferrun.Selection{Names: args, Groups: c.groups},
	}}, ""
}
