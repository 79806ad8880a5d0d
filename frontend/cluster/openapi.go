package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mut2cel/mut2cel/frontend/builtin"
)

// discoveryPath lists the OpenAPI v3 documents a server serves, one per
// group version, each with the URL that fetches its current content.
const discoveryPath = "/openapi/v3"

// OpenAPI reads the OpenAPI v3 document the cluster serves for a group
// version (the core group's is api/v1), as builtin.ReadOpenAPI reads the
// file kubectl get --raw /openapi/v3/apis/GROUP/VERSION writes. The
// document is found through the server's list of documents, read once per
// Reader; a group version the list does not have is an error naming what
// it has.
func (r *Reader) OpenAPI(ctx context.Context, gv schema.GroupVersion) (*builtin.OpenAPI, error) {
	paths, err := r.openAPIPaths(ctx)
	if err != nil {
		return nil, err
	}
	key := openAPIKey(gv)
	ref, ok := paths[key]
	if !ok {
		return nil, fmt.Errorf("cluster %s: serves no OpenAPI document for %s (%s lists %s)", r.Cluster, gvString(gv), discoveryPath, servedList(paths))
	}
	// The URL carries the hash of the document's content, which is how
	// the server tells its caches apart; it is served under the server's
	// path, as client-go's OpenAPI client fetches it.
	u, err := url.Parse(ref)
	if err != nil {
		return nil, fmt.Errorf("cluster %s: %s: %s: not a URL: %v", r.Cluster, discoveryPath, key, err)
	}
	data, err := r.get(ctx, u.Path, u.Query())
	if err != nil {
		return nil, err
	}
	return builtin.ReadOpenAPI(fmt.Sprintf("cluster %s: %s/%s", r.Cluster, discoveryPath, key), data)
}

// openAPIKey is the name the server's list gives a group version's
// document.
func openAPIKey(gv schema.GroupVersion) string {
	if gv.Group == "" {
		return "api/" + gv.Version
	}
	return "apis/" + gv.Group + "/" + gv.Version
}

func gvString(gv schema.GroupVersion) string {
	if gv.Group == "" {
		return "core/" + gv.Version
	}
	return gv.String()
}

// openAPIPaths reads the server's list of OpenAPI documents, name
// (apis/apps/v1) to server-relative URL; once, unless it fails.
func (r *Reader) openAPIPaths(ctx context.Context) (map[string]string, error) {
	r.discoveryMu.Lock()
	defer r.discoveryMu.Unlock()
	if r.discovery == nil {
		paths, err := r.readDiscovery(ctx)
		if err != nil {
			return nil, err
		}
		r.discovery = paths
	}
	return r.discovery, nil
}

func (r *Reader) readDiscovery(ctx context.Context) (map[string]string, error) {
	data, err := r.get(ctx, discoveryPath, nil)
	if err != nil {
		return nil, err
	}
	var list struct {
		Paths map[string]struct {
			ServerRelativeURL string `json:"serverRelativeURL"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("cluster %s: GET %s: not a list of OpenAPI documents: %v", r.Cluster, discoveryPath, err)
	}
	paths := make(map[string]string, len(list.Paths))
	for name, p := range list.Paths {
		paths[name] = p.ServerRelativeURL
	}
	return paths, nil
}

// servedList names the group versions a list has documents of, the
// first ten of them.
func servedList(paths map[string]string) string {
	var gvs []string
	for name := range paths {
		if rest, ok := strings.CutPrefix(name, "apis/"); ok {
			gvs = append(gvs, rest)
		} else if rest, ok := strings.CutPrefix(name, "api/"); ok {
			gvs = append(gvs, "core/"+rest)
		}
	}
	sort.Strings(gvs)
	if len(gvs) == 0 {
		return "none"
	}
	if len(gvs) > 10 {
		return fmt.Sprintf("%s and %d more", strings.Join(gvs[:10], ", "), len(gvs)-10)
	}
	return strings.Join(gvs, ", ")
}
