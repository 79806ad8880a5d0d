package phrases

import (
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/mut2cel/mut2cel/testkit/golden"
)

// TestBuiltinDocs holds builtin-docs.txt to the documentation of the API
// types client-go's scheme registers, read now; -update writes it.
func TestBuiltinDocs(t *testing.T) {
	var b strings.Builder
	for _, d := range indexBuiltinDocs() {
		if strings.ContainsAny(d.where+d.text, "\t\n") {
			t.Fatalf("%s: a tab or a line break in %q", d.where, d.text)
		}
		b.WriteString(d.where + "\t" + d.text + "\n")
	}
	if *golden.Update {
		if err := os.WriteFile("builtin-docs.txt", []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if b.String() != builtinDocsText {
		t.Errorf("builtin-docs.txt differs from the documentation of client-go's types; run go test ./frontend/infer/phrases -run BuiltinDocs -update")
	}
	if len(builtinDocs()) < 10 {
		t.Errorf("%d documented fields", len(builtinDocs()))
	}
}

// indexBuiltinDocs collects the fields of the built-in types whose
// documentation reads as immutability.
func indexBuiltinDocs() []builtinDoc {
	var out []builtinDoc
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		out = append(out, documented(t)...)
		for i := range t.NumField() {
			walk(t.Field(i).Type)
		}
	}
	known := clientgoscheme.Scheme.AllKnownTypes()
	types := make([]reflect.Type, 0, len(known))
	for _, t := range known {
		types = append(types, t)
	}
	sort.Slice(types, func(i, j int) bool { return types[i].String() < types[j].String() })
	for _, t := range types {
		walk(t)
	}
	return out
}

// swaggerDoc is the documentation generated for every API type.
type swaggerDoc interface{ SwaggerDoc() map[string]string }

// documented are the fields of t whose documentation reads as
// immutability.
func documented(t reflect.Type) []builtinDoc {
	d, ok := reflect.New(t).Elem().Interface().(swaggerDoc)
	if !ok {
		return nil
	}
	var out []builtinDoc
	docs := d.SwaggerDoc()
	fields := make([]string, 0, len(docs))
	for f := range docs {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	for _, f := range fields {
		if f != "" && readsAsImmutability(docs[f], f) {
			out = append(out, builtinDoc{where: t.Name() + "." + f, text: Normalized(docs[f])})
		}
	}
	return out
}
