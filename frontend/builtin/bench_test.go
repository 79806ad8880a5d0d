package builtin

import (
	"encoding/json"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	extensionsscheme "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/scheme"

	"github.com/mut2cel/mut2cel/testkit/hostile"
)

// BenchmarkReadOpenAPI reads a kind from a document and writes its CRD,
// as policy --openapi does: CustomResourceDefinition from the document
// kube-openapi generates for it (JSONSchemaProps refers to itself), and
// a kind whose references expand to 640,000 values, a third of what a
// run may read.
func BenchmarkReadOpenAPI(b *testing.B) {
	crdKind := (&apiextensionsv1.CustomResourceDefinition{}).OpenAPIModelName()
	generated := generatedDocument(b, extensionsscheme.Scheme, crdKind)
	crdDoc, err := json.Marshal(map[string]interface{}{"openapi": "3.0.0", "components": map[string]interface{}{"schemas": generated.schemas}})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		data []byte
		r    Resource
	}{
		{"CustomResourceDefinition", crdDoc, Resource{GVK: apiextensionsv1.SchemeGroupVersion.WithKind("CustomResourceDefinition"), Plural: "customresourcedefinitions"}},
		{"WideReferences", hostile.WideReferences("example.com", 400), Resource{GVK: widget, Plural: "widgets"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				doc, err := ReadOpenAPI("doc.json", bc.data)
				if err != nil {
					b.Fatal(err)
				}
				r := bc.r
				r.OpenAPI = doc
				if _, err := CRD(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
