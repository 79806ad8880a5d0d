package decl

import (
	"reflect"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

func TestMisspelling(t *testing.T) {
	for _, c := range []struct {
		key, want string
	}{
		{"x-kubernetes-mutabilty", ExtMutability},
		{"x-kubernetes-mutablity", ExtMutability},
		{"X-Kubernetes-Mutability", ExtMutability},
		{"x-kubernetes_mutability", ExtMutability},
		{"x-kubernets-mutability", ExtMutability},
		{"x-kubernetes-immutable", ExtMutability},
		{"x-kubernetes-mutable", ExtMutability},
		{"x-kubernetes-immutability", ExtMutability},
		{"x-kubernetes-key-mutabilty", ExtKeyMutability},
		{"x-kubernetes-keys-mutability", ExtKeyMutability},
		{"x-kubernetes-key-immutable", ExtKeyMutability},
		{"x-kubernetes-updates", ExtUpdate},
		{"X-KUBERNETES-UPDATE", ExtUpdate},
		{"x-kubernetes-update-constraints", ExtUpdate},
		{"x-kubernetes-mutability", ""},
		{"x-kubernetes-key-mutability", ""},
		{"x-kubernetes-update", ""},
		{"x-kubernetes-frobnicate", ""},
		{"x-mut2cel-format", ExtFormats},
		{"x-mut2cel-compare-formats", ExtFormats},
		{"x-kubernetes-formats", ExtFormats},
		{"x-mut2cel-formats", ""},
		{"x-mut2cel-other", ""},
		{"mutability", ""},
		{"immutable", ""},
	} {
		got, ok := Misspelling(c.key)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("Misspelling(%q) = %q, %v; want %q", c.key, got, ok, c.want)
		}
	}
}

// TestMisspellingApiserverKeys checks that no key the apiserver reads in
// a schema, its own x-kubernetes- extensions among them, is taken for a
// misspelling of mut2cel's.
func TestMisspellingApiserverKeys(t *testing.T) {
	typ := reflect.TypeOf(apiextensionsv1.JSONSchemaProps{})
	n := 0
	for i := range typ.NumField() {
		key, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if strings.HasPrefix(key, "x-kubernetes-") {
			n++
		}
		if ext, ok := Misspelling(key); ok {
			t.Errorf("Misspelling(%q) = %q; the apiserver reads that key", key, ext)
		}
	}
	if n != 7 {
		t.Errorf("JSONSchemaProps has %d x-kubernetes- keys, want the 7 this test was written for", n)
	}
}

func TestUnknownKey(t *testing.T) {
	for key, want := range map[string]string{
		"x-kubernetes-mutable": `"x-kubernetes-mutable" (did you mean x-kubernetes-mutability?)`,
		"frozen":               `"frozen"`,
	} {
		if got := UnknownKey(key); got != want {
			t.Errorf("UnknownKey(%q) = %s, want %s", key, got, want)
		}
	}
}
