package builtin

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/decl"
)

// shopDoc is a small OpenAPI v3 document written the way the apiserver
// writes one for a group version: fields of named types as allOf
// wrappers of a $ref with a default and a description beside it, the
// kind named by x-kubernetes-group-version-kind on its schema and on the
// operations of its paths, IntOrString and Quantity as a choice of
// scalars, a type that contains itself.
const shopDoc = `{
 "openapi": "3.0.0",
 "paths": {
  "/apis/shop.example.com/v1/namespaces/{namespace}/carts": {
   "get": {"x-kubernetes-action": "list", "x-kubernetes-group-version-kind": {"group": "shop.example.com", "version": "v1", "kind": "Cart"}},
   "post": {"x-kubernetes-action": "post", "x-kubernetes-group-version-kind": {"group": "shop.example.com", "version": "v1", "kind": "Cart"}}
  },
  "/apis/shop.example.com/v1/namespaces/{namespace}/carts/{name}": {
   "get": {"x-kubernetes-action": "get", "x-kubernetes-group-version-kind": {"group": "shop.example.com", "version": "v1", "kind": "Cart"}}
  },
  "/apis/shop.example.com/v1/namespaces/{namespace}/carts/{name}/status": {
   "put": {"x-kubernetes-action": "put", "x-kubernetes-group-version-kind": {"group": "shop.example.com", "version": "v1", "kind": "Cart"}}
  },
  "/apis/shop.example.com/v1/namespaces/{namespace}/carts/{name}/scale": {
   "get": {"x-kubernetes-action": "get", "x-kubernetes-group-version-kind": {"group": "autoscaling", "version": "v1", "kind": "Scale"}}
  },
  "/apis/shop.example.com/v1/watch/namespaces/{namespace}/carts": {
   "get": {"x-kubernetes-action": "watchlist", "x-kubernetes-group-version-kind": {"group": "shop.example.com", "version": "v1", "kind": "Cart"}}
  },
  "/apis/shop.example.com/v1/carts": {
   "get": {"x-kubernetes-action": "list", "x-kubernetes-group-version-kind": {"group": "shop.example.com", "version": "v1", "kind": "Cart"}}
  },
  "/apis/shop.example.com/v1/shelves": {
   "get": {"x-kubernetes-action": "list", "x-kubernetes-group-version-kind": {"group": "shop.example.com", "version": "v1", "kind": "Shelf"}}
  }
 },
 "components": {"schemas": {
  "com.example.shop.v1.Cart": {
   "type": "object",
   "description": "A cart.",
   "properties": {
    "apiVersion": {"type": "string", "description": "The version."},
    "kind": {"type": "string"},
    "metadata": {"allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}], "default": {}},
    "spec": {"allOf": [{"$ref": "#/components/schemas/com.example.shop.v1.CartSpec"}], "default": {}, "description": "The spec."},
    "status": {"type": "object", "properties": {"total": {"allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity"}]}}}
   },
   "x-kubernetes-group-version-kind": [{"group": "shop.example.com", "version": "v1", "kind": "Cart"}]
  },
  "com.example.shop.v1.CartList": {
   "type": "object",
   "properties": {"items": {"type": "array", "items": {"allOf": [{"$ref": "#/components/schemas/com.example.shop.v1.Cart"}]}}},
   "x-kubernetes-group-version-kind": [{"group": "shop.example.com", "version": "v1", "kind": "CartList"}]
  },
  "com.example.shop.v1.Shelf": {
   "type": "object",
   "x-kubernetes-group-version-kind": [{"group": "shop.example.com", "version": "v1", "kind": "Shelf"}]
  },
  "com.example.shop.v1.CartSpec": {
   "type": "object",
   "required": ["lines"],
   "properties": {
    "lines": {
     "type": "array", "maxItems": 100,
     "items": {"allOf": [{"$ref": "#/components/schemas/com.example.shop.v1.Line"}], "default": {}},
     "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["sku", "warehouse"],
     "x-kubernetes-patch-merge-key": "sku", "x-kubernetes-patch-strategy": "merge"
    },
    "tags": {"type": "array", "items": {"type": "string", "default": ""}, "x-kubernetes-list-type": "set"},
    "labels": {"type": "object", "additionalProperties": {"type": "string", "default": ""}, "x-kubernetes-map-type": "atomic"},
    "priority": {"allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString"}]},
    "payment": {"type": "string", "enum": ["Card", "Cash"], "default": "Card", "nullable": true},
    "channel": {"type": "string", "enum": ["Shop", "Web"], "default": ""},
    "note": {"type": "string", "format": "byte", "minLength": 1, "maxLength": 64},
    "extra": {"allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.runtime.RawExtension"}]},
    "raw": {"description": "Any JSON."},
    "filter": {"$ref": "#/components/schemas/com.example.shop.v1.Filter"}
   }
  },
  "com.example.shop.v1.Line": {
   "type": "object",
   "required": ["sku"],
   "properties": {
    "sku": {"type": "string", "default": ""},
    "warehouse": {"type": "string"},
    "count": {"type": "integer", "format": "int32", "minimum": 1, "default": 1}
   }
  },
  "com.example.shop.v1.Filter": {
   "type": "object",
   "properties": {
    "not": {"allOf": [{"$ref": "#/components/schemas/com.example.shop.v1.Filter"}]},
    "any": {"type": "array", "items": {"$ref": "#/components/schemas/com.example.shop.v1.Filter"}},
    "name": {"type": "string"}
   }
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": {
   "type": "object",
   "properties": {"name": {"type": "string"}, "finalizers": {"type": "array", "items": {"type": "string", "default": ""}, "x-kubernetes-list-type": "set"}}
  },
  "io.k8s.apimachinery.pkg.api.resource.Quantity": {"description": "A quantity.", "oneOf": [{"type": "string"}, {"type": "number"}]},
  "io.k8s.apimachinery.pkg.util.intstr.IntOrString": {"type": "", "format": "int-or-string", "oneOf": [{"type": "integer"}, {"type": "string"}]},
  "io.k8s.apimachinery.pkg.runtime.RawExtension": {"type": "object", "description": "Any object."}
 }}
}`

// shopCRD is the CRD document the reader makes of Cart.
const shopCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: carts.shop.example.com.builtin.mut2cel.io
spec:
  group: shop.example.com.builtin.mut2cel.io
  names:
    kind: Cart
    listKind: CartList
    plural: carts
    singular: cart
  scope: Namespaced
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        properties:
          apiVersion:
            type: string
          kind:
            type: string
          metadata:
            type: object
          spec:
            properties:
              channel:
                enum:
                - Shop
                - Web
                type: string
              extra:
                type: object
                x-kubernetes-preserve-unknown-fields: true
              filter:
                properties:
                  any:
                    items:
                      x-kubernetes-preserve-unknown-fields: true
                    type: array
                  name:
                    type: string
                  not:
                    x-kubernetes-preserve-unknown-fields: true
                type: object
              labels:
                additionalProperties:
                  default: ""
                  type: string
                type: object
                x-kubernetes-map-type: atomic
              lines:
                items:
                  properties:
                    count:
                      default: 1
                      format: int32
                      minimum: 1
                      type: integer
                    sku:
                      default: ""
                      type: string
                    warehouse:
                      type: string
                  required:
                  - sku
                  - warehouse
                  type: object
                maxItems: 100
                type: array
                x-kubernetes-list-map-keys:
                - sku
                - warehouse
                x-kubernetes-list-type: map
              note:
                format: byte
                maxLength: 64
                minLength: 1
                type: string
              payment:
                default: Card
                enum:
                - Card
                - Cash
                nullable: true
                type: string
              priority:
                x-kubernetes-int-or-string: true
              raw:
                x-kubernetes-preserve-unknown-fields: true
              tags:
                items:
                  default: ""
                  type: string
                type: array
                x-kubernetes-list-type: set
            required:
            - lines
            type: object
          status:
            properties:
              total:
                x-kubernetes-int-or-string: true
            type: object
        type: object
    served: true
    storage: true
    subresources:
      status: {}
`

func TestOpenAPICRD(t *testing.T) {
	doc, err := ReadOpenAPI("shop.json", []byte(shopDoc))
	if err != nil {
		t.Fatal(err)
	}
	r, err := doc.Resource(schema.GroupVersionKind{Group: "shop.example.com", Version: "v1", Kind: "Cart"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Plural != "carts" || r.ClusterScoped || !r.Status || r.Name() != "carts.shop.example.com" {
		t.Errorf("Resource(Cart) = %+v, want carts, namespaced, with status", r)
	}
	crd, err := CRD(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := yaml.Marshal(crd)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != shopCRD {
		t.Errorf("CRD(Cart) =\n%s\nwant\n%s", got, shopCRD)
	}
	for _, tc := range []struct{ path, at, why string }{
		{".spec.extra.size", ".spec.extra", "an object the document names no field of"},
		{".spec.raw.a[*].b", ".spec.raw", "of no type, which holds any JSON value"},
		{".spec.filter.not.name", ".spec.filter.not", "cut where schema com.example.shop.v1.Filter recurs within itself"},
		{".spec.filter.any[*].name", ".spec.filter.any[*]", "cut where schema com.example.shop.v1.Filter recurs within itself"},
		{".spec.extra", "", ""},
		{".spec.lines[*].sku", "", ""},
	} {
		p, err := decl.ParsePath(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		at, why, ok := r.Opaque(p)
		if ok != (tc.at != "") || ok && (at.String() != tc.at || why != tc.why) {
			t.Errorf("Opaque(%s) = %s, %q, %t; want %s, %q", tc.path, at, why, ok, tc.at, tc.why)
		}
	}
	shelf, err := doc.Resource(schema.GroupVersionKind{Group: "shop.example.com", Version: "v1", Kind: "Shelf"})
	if err != nil || shelf.Plural != "shelves" || !shelf.ClusterScoped || shelf.Status {
		t.Errorf("Resource(Shelf) = %+v, %v, want shelves, cluster-scoped, without status", shelf, err)
	}
}

func TestOpenAPIErrors(t *testing.T) {
	cart := schema.GroupVersionKind{Group: "shop.example.com", Version: "v1", Kind: "Cart"}
	for _, tc := range []struct {
		name, old, new string
		kind           schema.GroupVersionKind
		err            string
	}{
		{name: "not v3", old: `"openapi": "3.0.0"`, new: `"swagger": "2.0"`, kind: cart,
			err: "shop.json: not an OpenAPI v3 document (openapi: <nil>); the apiserver serves one per group version at /openapi/v3/apis/GROUP/VERSION"},
		{name: "no kind", kind: schema.GroupVersionKind{Group: "shop.example.com", Version: "v1", Kind: "Till"},
			err: "shop.json: no schema of the document is of kind shop.example.com/v1, Kind=Till"},
		{name: "no path", kind: schema.GroupVersionKind{Group: "shop.example.com", Version: "v1", Kind: "CartList"},
			err: "shop.json: no path serves shop.example.com/v1, Kind=CartList: its plural and scope are unknown"},
		{name: "dangling reference", old: `com.example.shop.v1.Line"}]`, new: `com.example.shop.v1.Lines"}]`, kind: cart,
			err: "shop.json: schema com.example.shop.v1.Cart of shop.example.com/v1, Kind=Cart: .spec.lines[*]: reference to com.example.shop.v1.Lines: the document has no such schema"},
		{name: "foreign reference", old: `"#/components/schemas/io.k8s.apimachinery.pkg.runtime.RawExtension"`, new: `"other.json#/x"`, kind: cart,
			err: `shop.json: schema com.example.shop.v1.Cart of shop.example.com/v1, Kind=Cart: .spec.extra: reference "other.json#/x" is not to #/components/schemas/ of the document`},
		{name: "allOf of two", old: `"raw": {"description": "Any JSON."}`, new: `"raw": {"allOf": [{"type": "string"}, {"minLength": 1}]}`, kind: cart,
			err: "shop.json: schema com.example.shop.v1.Cart of shop.example.com/v1, Kind=Cart: .spec.raw: allOf of 2 schemas without a type: a structural schema cannot hold it"},
		{name: "both properties and additionalProperties", old: `"additionalProperties": {"type": "string", "default": ""}`, new: `"additionalProperties": {"type": "string"}, "properties": {}`, kind: cart,
			err: "shop.json: schema com.example.shop.v1.Cart of shop.example.com/v1, Kind=Cart: .spec.labels: properties and additionalProperties together: a structural schema cannot hold both"},
		{name: "unknown type", old: `"type": "string", "format": "byte"`, new: `"type": "file"`, kind: cart,
			err: `shop.json: schema com.example.shop.v1.Cart of shop.example.com/v1, Kind=Cart: .spec.note: type "file" is no type of a structural schema`},
		{name: "key not a property", old: `["sku", "warehouse"]`, new: `["sku", "shelf"]`, kind: cart,
			err: `shop.json: schema com.example.shop.v1.Cart of shop.example.com/v1, Kind=Cart: .spec.lines: list-map key "shelf" is no property of the items`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := shopDoc
			if tc.old != "" {
				if !strings.Contains(text, tc.old) {
					t.Fatalf("the document has no %s", tc.old)
				}
				text = strings.Replace(text, tc.old, tc.new, 1)
			}
			err := func() error {
				doc, err := ReadOpenAPI("shop.json", []byte(text))
				if err != nil {
					return err
				}
				r, err := doc.Resource(tc.kind)
				if err != nil {
					return err
				}
				_, err = CRD(r)
				return err
			}()
			if err == nil || err.Error() != tc.err {
				t.Errorf("error %v, want %s", err, tc.err)
			}
		})
	}
}
