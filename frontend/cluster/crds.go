package cluster

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// crdsPath is where the apiextensions API serves CRDs.
const crdsPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"

// pageSize is the most CRDs one list request asks for, as kubectl pages
// its lists: one response per 100 CRDs of a few hundred KiB each, rather
// than one of every CRD of the cluster.
var pageSize = 100

// Selection says which CRDs to read: those named, and those of the
// groups; all of them when it names neither.
type Selection struct {
	Names  []string // metadata.name, <plural>.<group>
	Groups []string // spec.group
}

// ServedCRD is a CustomResourceDefinition as a cluster holds it.
type ServedCRD struct {
	// Name is metadata.name.
	Name string
	// Origin names where the CRD was read, for messages:
	// "cluster kind-dev: customresourcedefinitions/<name>".
	Origin string
	// Document is the CRD as its manifest would hold it, for crd.Read.
	Document map[string]interface{}
	// Stored is what the server keeps beside the definition.
	Stored Stored
}

// Stored is what a CRD read from a cluster holds that its manifest does
// not: set aside so that a CRD reads alike from a cluster and from a file.
type Stored struct {
	ResourceVersion   string
	UID               string
	Generation        int64
	CreationTimestamp string
	// DeletionTimestamp is set on a CRD being deleted.
	DeletionTimestamp string
	// Status holds the conditions (Established, NamesAccepted), the
	// accepted names and the versions objects are stored in.
	Status map[string]interface{}
	// LastApplied is the manifest kubectl apply last applied, as it
	// keeps it in the annotation kubectl.kubernetes.io/last-applied-configuration.
	LastApplied string
}

// CRDs reads the CRDs of the selection, sorted by name. A name the
// cluster has no CRD of is an error; a group without CRDs is not.
func (r *Reader) CRDs(ctx context.Context, sel Selection) ([]ServedCRD, error) {
	var docs []map[string]interface{}
	var err error
	if len(sel.Groups) == 0 && len(sel.Names) > 0 {
		docs, err = r.named(ctx, sel.Names)
	} else {
		docs, err = r.list(ctx, sel)
	}
	if err != nil {
		return nil, err
	}
	out := make([]ServedCRD, 0, len(docs))
	for _, doc := range docs {
		out = append(out, r.split(doc))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// named reads each named CRD with a request of its own, which needs no
// permission to list. Every name the cluster does not know is reported;
// after any other failure, the requests not yet sent are not.
func (r *Reader) named(ctx context.Context, names []string) ([]map[string]interface{}, error) {
	names = unique(names)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	docs := make([]map[string]interface{}, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if strings.Contains(name, "/") {
				// Not a name (a CRD's is a DNS subdomain), and a path
				// to something else: a subresource.
				errs[i] = r.noCRD(name)
				return
			}
			docs[i], errs[i] = r.object(ctx, crdsPath+"/"+name, nil)
			var status *statusError
			switch {
			case errors.As(errs[i], &status) && status.code == http.StatusNotFound:
				errs[i] = r.noCRD(name)
			case errs[i] != nil:
				cancel()
			}
		}()
	}
	wg.Wait()
	return docs, firstFailure(errs)
}

// noCRDError is a CRD the selection names and the cluster does not have.
type noCRDError struct{ msg string }

func (e *noCRDError) Error() string { return e.msg }

func (r *Reader) noCRD(name string) error {
	return &noCRDError{fmt.Sprintf("cluster %s: no CRD named %s", r.Cluster, name)}
}

// firstFailure is the first error in the order of the names that is not
// a CRD not found nor a request cancelled after it; else every CRD not
// found.
func firstFailure(errs []error) error {
	var notFound []error
	var first error
	for _, err := range errs {
		var no *noCRDError
		switch {
		case err == nil:
		case errors.As(err, &no):
			notFound = append(notFound, err)
		case first == nil || errors.Is(first, context.Canceled):
			first = err
		}
	}
	if first != nil {
		return first
	}
	return errors.Join(notFound...)
}

// list reads the CRDs page by page and keeps those of the selection.
func (r *Reader) list(ctx context.Context, sel Selection) ([]map[string]interface{}, error) {
	all := len(sel.Names) == 0 && len(sel.Groups) == 0
	found := map[string]bool{}
	var docs []map[string]interface{}
	query := url.Values{"limit": {strconv.Itoa(pageSize)}}
	for {
		page, err := r.object(ctx, crdsPath, query)
		if err != nil {
			return nil, err
		}
		items, _ := page["items"].([]interface{})
		for _, item := range items {
			doc, ok := item.(map[string]interface{})
			if !ok {
				continue // not an object: the server's list is not of CRDs
			}
			name, group := nameAndGroup(doc)
			if all || contains(sel.Names, name) || contains(sel.Groups, group) {
				docs = append(docs, doc)
				found[name] = true
			}
		}
		meta, _ := page["metadata"].(map[string]interface{})
		next, _ := meta["continue"].(string)
		if next == "" {
			break
		}
		query.Set("continue", next)
	}
	var missing []error
	for _, name := range unique(sel.Names) {
		if !found[name] {
			missing = append(missing, r.noCRD(name))
		}
	}
	return docs, errors.Join(missing...)
}

// object reads a JSON object, integers as int64 as the manifest package
// decodes files.
func (r *Reader) object(ctx context.Context, path string, query url.Values) (map[string]interface{}, error) {
	data, err := r.get(ctx, path, query)
	if err != nil {
		return nil, err
	}
	var obj map[string]interface{}
	if err := utiljson.Unmarshal(data, &obj); err != nil {
		return nil, fmt.Errorf("cluster %s: GET %s: not a JSON object: %v", r.Cluster, path, err)
	}
	return obj, nil
}

func unique(list []string) []string {
	out := append([]string(nil), list...)
	sort.Strings(out)
	k := 0
	for i, s := range out {
		if i == 0 || s != out[k-1] {
			out[k] = s
			k++
		}
	}
	return out[:k]
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
