package builtin

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/client/applyconfiguration"
	extensionsscheme "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/scheme"
	generatedopenapi "k8s.io/apiextensions-apiserver/pkg/generated/openapi"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/managedfields"
	openapinamer "k8s.io/apiserver/pkg/endpoints/openapi"
	"k8s.io/client-go/applyconfigurations"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/kube-openapi/pkg/builder3"
	"k8s.io/kube-openapi/pkg/common"
)

// TestOpenAPIAgreesWithSMD reads built-in kinds twice: from the OpenAPI
// v3 schemas kube-openapi's builder writes from the definitions
// openapi-gen generated for the apiextensions-apiserver (as an apiserver
// serves them at /openapi/v3/apis/GROUP/VERSION), and from the
// structured-merge-diff schema a client ships for server-side apply:
// client-go's for autoscaling/v1's HorizontalPodAutoscaler, the
// apiextensions client's for CustomResourceDefinition. The two sources
// are generated apart from the same Go types; every list type, list-map
// key and map type, and every property, must agree.
func TestOpenAPIAgreesWithSMD(t *testing.T) {
	for _, tc := range []struct {
		obj interface {
			runtime.Object
			OpenAPIModelName() string
		}
		scheme    *runtime.Scheme
		converter managedfields.TypeConverter
		// collections is the number of lists and maps outside recursion
		// (JSONSchemaProps, which both sources cut where it recurs).
		collections int
	}{
		{&autoscalingv1.HorizontalPodAutoscaler{}, clientgoscheme.Scheme, applyconfigurations.NewTypeConverter(clientgoscheme.Scheme), 5},
		{&apiextensionsv1.CustomResourceDefinition{}, extensionsscheme.Scheme, applyconfiguration.NewTypeConverter(extensionsscheme.Scheme), 26},
	} {
		kind := tc.obj.OpenAPIModelName()
		t.Run(kind, func(t *testing.T) {
			gvks, _, err := tc.scheme.ObjectKinds(tc.obj)
			if err != nil {
				t.Fatal(err)
			}
			doc := generatedDocument(t, tc.scheme, kind)
			if _, err := CRD(Resource{GVK: gvks[0], Plural: "things", OpenAPI: doc}); err != nil {
				t.Fatal(err)
			}
			// The schema as read, before CRD makes the root's metadata an
			// object without properties: ObjectMeta's lists are compared
			// too.
			fromOpenAPI, err := doc.reader(kind).node(doc.schemas[kind].(map[string]interface{}), nil)
			if err != nil {
				t.Fatal(err)
			}
			tc.obj.GetObjectKind().SetGroupVersionKind(gvks[0])
			tv, err := tc.converter.ObjectToTyped(tc.obj)
			if err != nil {
				t.Fatal(err)
			}
			fromSMD := (&converter{s: tv.Schema(), stack: map[string]bool{}}).convert(tv.TypeRef())
			var differ []string
			compared := compareCollections(fromOpenAPI, fromSMD, ".", &differ)
			for _, d := range differ {
				t.Error(d)
			}
			if compared != tc.collections {
				t.Errorf("compared %d lists and maps, want %d", compared, tc.collections)
			}
			t.Logf("%d lists and maps agree", compared)
			for _, c := range []struct{ path, want string }{
				{".metadata.ownerReferences", "map uid"},
				{".metadata.finalizers", "set "},
				{".metadata.managedFields", "atomic "},
			} {
				if got := collectionType(at(fromOpenAPI, c.path)); got != c.want {
					t.Errorf("%s: %s, want %s", c.path, got, c.want)
				}
			}
		})
	}
}

// at is the node at a path of property names.
func at(node map[string]interface{}, path string) map[string]interface{} {
	for _, name := range strings.Split(path[1:], ".") {
		node = node["properties"].(map[string]interface{})[name].(map[string]interface{})
	}
	return node
}

// generatedDocument is the OpenAPI v3 document of the named definitions,
// as kube-openapi's builder writes it from the generated definitions,
// each kind named by x-kubernetes-group-version-kind as the apiserver's
// namer does.
func generatedDocument(t testing.TB, scheme *runtime.Scheme, names ...string) *OpenAPI {
	t.Helper()
	namer := openapinamer.NewDefinitionNamer(scheme)
	schemas, err := builder3.BuildOpenAPIDefinitionsForResources(&common.OpenAPIV3Config{
		GetDefinitions:    generatedopenapi.GetOpenAPIDefinitions,
		GetDefinitionName: namer.GetDefinitionName,
	}, names...)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(map[string]interface{}{"openapi": "3.0.0", "components": map[string]interface{}{"schemas": schemas}})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := ReadOpenAPI("generated.json", data)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// compareCollections walks two schemas where both describe fields and
// compares their list and map types; it returns how many collections it
// compared.
func compareCollections(a, b map[string]interface{}, path string, differ *[]string) int {
	n := 0
	if a["type"] == "array" || a["type"] == "object" && a["additionalProperties"] != nil {
		n++
		if x, y := collectionType(a), collectionType(b); x != y {
			*differ = append(*differ, fmt.Sprintf("%s: OpenAPI says %s, structured-merge-diff %s", path, x, y))
		}
	}
	if a["type"] == "object" && a["x-kubernetes-map-type"] != b["x-kubernetes-map-type"] {
		*differ = append(*differ, fmt.Sprintf("%s: map type %v from OpenAPI, %v from structured-merge-diff", path, a["x-kubernetes-map-type"], b["x-kubernetes-map-type"]))
	}
	ap, _ := a["properties"].(map[string]interface{})
	bp, _ := b["properties"].(map[string]interface{})
	for _, name := range slices.Sorted(maps.Keys(ap)) {
		x, _ := ap[name].(map[string]interface{})
		y, ok := bp[name].(map[string]interface{})
		if !ok {
			*differ = append(*differ, fmt.Sprintf("%s%s: only in OpenAPI", path, name))
			continue
		}
		n += compareCollections(x, y, path+name+".", differ)
	}
	for _, name := range slices.Sorted(maps.Keys(bp)) {
		if _, ok := ap[name]; !ok {
			*differ = append(*differ, fmt.Sprintf("%s%s: only in structured-merge-diff", path, name))
		}
	}
	for _, k := range []string{"items", "additionalProperties"} {
		x, ok1 := a[k].(map[string]interface{})
		y, ok2 := b[k].(map[string]interface{})
		if ok1 && ok2 {
			n += compareCollections(x, y, strings.TrimSuffix(path, ".")+"[*].", differ)
		}
	}
	return n
}

// collectionType says how a list or map merges: a list without a type is
// atomic, in a CRD as in server-side apply.
func collectionType(s map[string]interface{}) string {
	if s["type"] != "array" {
		return fmt.Sprint("map ", s["x-kubernetes-map-type"])
	}
	lt, _ := s["x-kubernetes-list-type"].(string)
	if lt == "" {
		lt = "atomic"
	}
	var keys []string
	list, _ := s["x-kubernetes-list-map-keys"].([]interface{})
	for _, k := range list {
		keys = append(keys, k.(string))
	}
	sort.Strings(keys)
	return lt + " " + strings.Join(keys, ",")
}
