package builtin

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v2"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/client-go/applyconfigurations"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/mut2cel/mut2cel/testkit/golden"
)

// TestClientGoData holds the files of clientgo.go to client-go itself: the
// kinds its scheme registers with the names of their types, and its
// schema for server-side apply, as applyconfigurations' type converter
// reads them. With -update it writes them.
func TestClientGoData(t *testing.T) {
	kinds := clientGoKindsText(t)
	schemaYAML := clientGoSchemaYAML(t)
	if *golden.Update {
		if err := os.WriteFile("clientgo-kinds.txt", []byte(kinds), 0o644); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		w.Write(schemaYAML)
		w.Close()
		if err := os.WriteFile("clientgo-schema.yaml.gz", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if kinds != clientGoKinds {
		t.Errorf("clientgo-kinds.txt differs from client-go's scheme; run go test ./frontend/builtin -run ClientGoData -update")
	}
	r, err := gzip.NewReader(bytes.NewReader(clientGoSchema))
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(embedded, schemaYAML) {
		t.Errorf("clientgo-schema.yaml.gz differs from client-go's schema; run go test ./frontend/builtin -run ClientGoData -update")
	}
}

// clientGoKindsText is clientgo-kinds.txt as client-go's scheme says it.
func clientGoKindsText(t *testing.T) string {
	var lines []string
	for gvk := range clientgoscheme.Scheme.AllKnownTypes() {
		name, err := clientgoscheme.Scheme.ToOpenAPIDefinitionName(gvk)
		if err != nil || name == "" {
			name = "-"
		}
		kind := gvk.Version + "/" + gvk.Kind
		if gvk.Group != "" {
			kind = gvk.Group + "/" + kind
		}
		lines = append(lines, kind+" "+name)
	}
	slices.Sort(lines)
	if len(lines) < 100 {
		t.Fatalf("client-go's scheme has %d kinds", len(lines))
	}
	return strings.Join(lines, "\n") + "\n"
}

// clientGoSchemaYAML is client-go's schema for server-side apply, in the
// YAML its parser reads, checked to parse back to the same schema.
func clientGoSchemaYAML(t *testing.T) []byte {
	obj := &appsv1.Deployment{}
	obj.SetGroupVersionKind(appsv1.SchemeGroupVersion.WithKind("Deployment"))
	tv, err := applyconfigurations.NewTypeConverter(clientgoscheme.Scheme).ObjectToTyped(obj)
	if err != nil {
		t.Fatal(err)
	}
	data, err := yaml.Marshal(tv.Schema())
	if err != nil {
		t.Fatal(err)
	}
	back, err := typed.NewParser(typed.YAMLObject(data))
	if err != nil {
		t.Fatal(err)
	}
	// Compared as written: the types hold caches DeepEqual would see.
	again, err := yaml.Marshal(&back.Schema)
	if err != nil || !bytes.Equal(again, data) {
		t.Fatalf("client-go's schema does not read back as itself from YAML (%v)", err)
	}
	return data
}

// TestClientGoKindsAgree checks, kind by kind, that the embedded data
// gives the type client-go's type converter gives, or fails where it
// fails, and that the schema they are read in is client-go's.
func TestClientGoKindsAgree(t *testing.T) {
	tc := applyconfigurations.NewTypeConverter(clientgoscheme.Scheme)
	checked := 0
	var theirs, ours *smdschema.Schema
	for gvk := range clientgoscheme.Scheme.AllKnownTypes() {
		if !knownKind(gvk) {
			t.Errorf("%s: not a known kind", gvk)
			continue
		}
		obj, err := clientgoscheme.Scheme.New(gvk)
		if err != nil {
			t.Fatal(err)
		}
		obj.GetObjectKind().SetGroupVersionKind(gvk)
		want, wantErr := tc.ObjectToTyped(obj)
		got, gotErr := clientGoType(gvk)
		if (wantErr != nil) != (gotErr != nil) {
			t.Errorf("%s: client-go: %v; embedded: %v", gvk, wantErr, gotErr)
			continue
		}
		if wantErr != nil {
			continue
		}
		if *want.TypeRef().NamedType != *got.TypeRef.NamedType {
			t.Errorf("%s: type %s, client-go's %s", gvk, *got.TypeRef.NamedType, *want.TypeRef().NamedType)
		}
		theirs, ours = want.Schema(), got.Schema
		checked++
	}
	t.Logf("%d kinds with a schema", checked)
	if checked < 100 {
		t.Fatalf("only %d kinds checked", checked)
	}
	if !sameSchema(t, theirs, ours) {
		t.Error("the embedded schema differs from client-go's")
	}
}

// sameSchema compares two schemas as written: their types hold caches
// that DeepEqual would see.
func sameSchema(t *testing.T, a, b *smdschema.Schema) bool {
	x, err := yaml.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := yaml.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(x, y)
}
