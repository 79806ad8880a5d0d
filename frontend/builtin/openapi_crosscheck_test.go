package builtin

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/client/applyconfiguration"
	extensionsscheme "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/scheme"
	generatedopenapi "k8s.io/apiextensions-apiserver/pkg/generated/openapi"
	openapinamer "k8s.io/apiserver/pkg/endpoints/openapi"
	"k8s.io/kube-openapi/pkg/builder3"
	"k8s.io/kube-openapi/pkg/common"
)

// TestOpenAPIAgreesWithSMD reads the built-in CustomResourceDefinition
// kind twice: from the OpenAPI v3 schemas kube-openapi's builder writes
// from the apiextensions-apiserver's generated definitions (as the
// apiserver serves them at /openapi/v3/apis/apiextensions.k8s.io/v1), and
// from the structured-merge-diff schema the apiextensions client ships for
// server-side apply. The two sources are generated apart from the same Go
// types; every list type, list-map key and map type must agree.
func TestOpenAPIAgreesWithSMD(t *testing.T) {
	kind := apiextensionsv1.CustomResourceDefinition{}.OpenAPIModelName()
	namer := openapinamer.NewDefinitionNamer(extensionsscheme.Scheme)
	schemas, err := builder3.BuildOpenAPIDefinitionsForResources(&common.OpenAPIV3Config{
		GetDefinitions:    generatedopenapi.GetOpenAPIDefinitions,
		GetDefinitionName: namer.GetDefinitionName,
	}, kind)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(map[string]interface{}{"openapi": "3.0.0", "components": map[string]interface{}{"schemas": schemas}})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := ReadOpenAPI("apiextensions.k8s.io-v1.json", data)
	if err != nil {
		t.Fatal(err)
	}
	gvk := apiextensionsv1.SchemeGroupVersion.WithKind("CustomResourceDefinition")
	// The schema as read, before CRD makes the root's metadata an object
	// without properties: ObjectMeta's lists are compared too.
	fromOpenAPI, err := (&schemaReader{doc: doc, stack: map[string]bool{kind: true}}).node(doc.schemas[kind].(map[string]interface{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CRD(Resource{GVK: gvk, Plural: "customresourcedefinitions", OpenAPI: doc}); err != nil {
		t.Fatal(err)
	}

	obj := &apiextensionsv1.CustomResourceDefinition{}
	obj.SetGroupVersionKind(gvk)
	tv, err := applyconfiguration.NewTypeConverter(extensionsscheme.Scheme).ObjectToTyped(obj)
	if err != nil {
		t.Fatal(err)
	}
	fromSMD := (&converter{s: tv.Schema(), stack: map[string]bool{}}).convert(tv.TypeRef())

	var differ []string
	compared := compareCollections(fromOpenAPI, fromSMD, ".", &differ)
	for _, d := range differ {
		t.Error(d)
	}
	// The lists and maps of the CRD kind and its metadata outside the
	// recursion of JSONSchemaProps, where both sources cut it.
	if compared != 26 {
		t.Errorf("compared %d lists and maps, want 26", compared)
	}
	for _, tc := range []struct{ path, want string }{
		{".metadata.ownerReferences", "map uid"},
		{".metadata.finalizers", "set "},
		{".metadata.managedFields", "atomic "},
		{".status.conditions", "map type"},
		{".spec.versions", "atomic "},
	} {
		node := fromOpenAPI
		for _, name := range strings.Split(tc.path[1:], ".") {
			node = node["properties"].(map[string]interface{})[name].(map[string]interface{})
		}
		if got := collectionType(node); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.path, got, tc.want)
		}
	}
	t.Logf("%d lists and maps agree", compared)
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
	for _, name := range sortedKeys(ap) {
		x, _ := ap[name].(map[string]interface{})
		y, ok := bp[name].(map[string]interface{})
		if !ok {
			*differ = append(*differ, fmt.Sprintf("%s%s: only in OpenAPI", path, name))
			continue
		}
		n += compareCollections(x, y, path+name+".", differ)
	}
	for _, name := range sortedKeys(bp) {
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
