package builtin

import (
	"testing"

	"github.com/mut2cel/mut2cel/decl"
)

func TestParseResource(t *testing.T) {
	for _, tc := range []struct{ in, name, plural, err string }{
		{in: "apps/v1/Deployment", name: "deployments.apps", plural: "deployments"},
		{in: "v1/Service", name: "services", plural: "services"},
		{in: "networking.k8s.io/v1/Ingress", name: "ingresses.networking.k8s.io", plural: "ingresses"},
		{in: "apps/v1/Nothing", err: `"apps/v1/Nothing": no built-in kind of this Kubernetes release (client-go v0.37) is apps/v1, Kind=Nothing`},
		{in: "Deployment", err: `"Deployment": want GROUP/VERSION/KIND, as apps/v1/Deployment, or VERSION/KIND for the core group, as v1/Service`},
	} {
		r, err := ParseResource(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error %v, want %s", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || r.Name() != tc.name || r.Plural != tc.plural {
			t.Errorf("%s: %+v %v, want name %s plural %s", tc.in, r, err, tc.name, tc.plural)
		}
	}
}

// TestListTypes checks the list types and keys the schema carries against
// what Kubernetes declares on the types.
func TestListTypes(t *testing.T) {
	r, err := ParseResource("apps/v1/Deployment")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := CRD(r)
	if err != nil {
		t.Fatal(err)
	}
	root := doc["spec"].(map[string]interface{})["versions"].([]interface{})[0].(map[string]interface{})["schema"].(map[string]interface{})["openAPIV3Schema"].(map[string]interface{})
	for _, tc := range []struct{ path, listType, keys string }{
		{".spec.template.spec.containers", "map", "[name]"},
		{".spec.template.spec.containers[*].ports", "map", "[containerPort protocol]"},
		{".spec.template.spec.volumes", "map", "[name]"},
		{".spec.template.spec.containers[*].args", "atomic", "[]"},
		{".spec.template.metadata.finalizers", "set", "[]"},
	} {
		p, err := decl.ParsePath(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		rel, ok := p.Resolve(root)
		if !ok {
			t.Errorf("%s: no such node", tc.path)
			continue
		}
		node := root
		for i := 0; i < len(rel); i++ {
			node = node[rel[i].(string)].(map[string]interface{})
			if rel[i] == "properties" {
				i++
				node = node[rel[i].(string)].(map[string]interface{})
			}
		}
		keys, _ := node["x-kubernetes-list-map-keys"].([]interface{})
		if node["x-kubernetes-list-type"] != tc.listType || fmtKeys(keys) != tc.keys {
			t.Errorf("%s: list type %v keys %v, want %s %s", tc.path, node["x-kubernetes-list-type"], keys, tc.listType, tc.keys)
		}
	}
	if md := root["properties"].(map[string]interface{})["metadata"]; len(md.(map[string]interface{})) != 1 {
		t.Errorf("root metadata %v, want an object without properties", md)
	}
}

func fmtKeys(keys []interface{}) string {
	s := "["
	for i, k := range keys {
		if i > 0 {
			s += " "
		}
		s += k.(string)
	}
	return s + "]"
}
