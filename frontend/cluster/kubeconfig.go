package cluster

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// inCluster names the cluster of a pod's service account.
const inCluster = "in-cluster"

// load reads the kubeconfig with kubectl's loading rules (an explicit
// file alone, or the files of KUBECONFIG merged, the first to name a
// context, cluster or user winning, or ~/.kube/config) and returns the
// client configuration of the context and the context's name. With no
// kubeconfig file at all, in a pod, it is the pod's service account.
func load(explicit, context string) (*rest.Config, string, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = explicit
	// Migration copies a kubeconfig from an old location to the new one:
	// a write, and reading a cluster writes nothing.
	rules.MigrationRules = nil
	// Missing files are this package's error, not a log line.
	rules.Warner = func(error) {}
	files := rules.GetLoadingPrecedence()
	where := "kubeconfig " + strings.Join(files, ", ")
	if !anyExists(files) {
		missing := "no such file"
		if len(files) > 1 {
			missing = "none of these files exists"
		}
		if explicit != "" || context != "" {
			return nil, "", fmt.Errorf("%s: %s", where, missing)
		}
		config, err := rest.InClusterConfig()
		if errors.Is(err, rest.ErrNotInCluster) {
			return nil, "", fmt.Errorf("%s: %s, and this is not a pod of a cluster", where, missing)
		}
		if err != nil {
			return nil, "", fmt.Errorf("%s: %s; in-cluster configuration: %v", where, missing, err)
		}
		return config, inCluster, nil
	}
	raw, err := rules.Load()
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", where, err)
	}
	name, err := contextOf(raw, context)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", where, err)
	}
	config, err := clientcmd.NewNonInteractiveClientConfig(*raw, name, &clientcmd.ConfigOverrides{}, rules).ClientConfig()
	if err != nil {
		return nil, "", fmt.Errorf("%s, context %q: %v", where, name, err)
	}
	return config, name, nil
}

// contextOf returns the name of the context to use, given or current,
// once it is known to exist and to name a cluster with a server:
// clientcmd's own errors for these list every problem of the merged
// configuration, most of them about contexts not in use.
func contextOf(raw *clientcmdapi.Config, given string) (string, error) {
	name := given
	if name == "" {
		name = raw.CurrentContext
	}
	if name == "" {
		return "", fmt.Errorf("no current context, and none given (contexts: %s)", names(raw.Contexts))
	}
	ctx, ok := raw.Contexts[name]
	if !ok {
		what := "no context %q"
		if given == "" {
			what = "the current context %q does not exist"
		}
		return "", fmt.Errorf(what+" (contexts: %s)", name, names(raw.Contexts))
	}
	c, ok := raw.Clusters[ctx.Cluster]
	switch {
	case !ok:
		return "", fmt.Errorf("context %q: no cluster %q", name, ctx.Cluster)
	case c.Server == "":
		return "", fmt.Errorf("context %q: cluster %q has no server", name, ctx.Cluster)
	}
	return name, nil
}

// names lists the keys of a kubeconfig's map, sorted.
func names[V any](m map[string]V) string {
	if len(m) == 0 {
		return "none"
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

func anyExists(files []string) bool {
	for _, f := range files {
		if _, err := os.Stat(f); err == nil {
			return true
		}
	}
	return false
}
