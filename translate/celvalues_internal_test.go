package translate

import (
	"strings"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
)

// TestTypedFormatsMatchTheApiserver checks typedFormats against the
// apiserver's own CEL model: the formats it declares with another type
// than string, for every format a CRD may carry, and the spellings each
// entry names as equal.
func TestTypedFormatsMatchTheApiserver(t *testing.T) {
	// The formats apiextensions validates (validation.supportedVersionedFormats,
	// unexported), both spellings of date-time, and one it does not know.
	formats := []string{"bsonobjectid", "uri", "email", "hostname", "ipv4", "ipv6", "cidr", "mac",
		"uuid", "uuid3", "uuid4", "uuid5", "isbn", "isbn10", "isbn13", "creditcard", "ssn", "hexcolor",
		"rgbcolor", "byte", "password", "date", "duration", "datetime", "date-time",
		"k8s-short-name", "k8s-long-name", "unknown"}
	for _, f := range formats {
		s := &schema.Structural{Generic: schema.Generic{Type: "string"}, ValueValidation: &schema.ValueValidation{Format: f}}
		got := model.SchemaDeclType(s, false).TypeName()
		want := "string"
		if tf, ok := typedFormats[f]; ok {
			want = tf.celType
		}
		if got != want {
			t.Errorf("format %s: the apiserver declares %s, typedFormats says %s", f, got, want)
		}
	}
	for name, tf := range typedFormats {
		if tf.spellings == "" {
			continue
		}
		s := &schema.Structural{Generic: schema.Generic{Type: "string"}, ValueValidation: &schema.ValueValidation{Format: name}}
		pair := strings.Split(tf.spellings, " and ")
		if len(pair) != 2 || pair[0] == pair[1] {
			t.Fatalf("format %s: spellings %q are not two strings", name, tf.spellings)
		}
		if eq := cel.UnstructuredToVal(pair[0], s).Equal(cel.UnstructuredToVal(pair[1], s)); eq.Value() != true {
			t.Errorf("format %s: %s == %s is %v in the apiserver's CEL, want true", name, pair[0], pair[1], eq.Value())
		}
	}
}

// TestEqualSeesProperty checks equalSeesProperty against names the
// apiserver's object == is known to skip or misread.
func TestEqualSeesProperty(t *testing.T) {
	for name, want := range map[string]bool{
		"a": true, "x-y": true, "a.b": true, "foo__bar": true, "namespace": true, "in": true, "_a_": true,
		"__meta__": false, "__kind__": false, "x__dash__y": false, "__namespace__": false,
		"foo__bar__baz": false, "a__in__b": false, "__underscores__": false, "x__dot__": false,
	} {
		if got := equalSeesProperty(name); got != want {
			t.Errorf("equalSeesProperty(%q) = %v, want %v", name, got, want)
		}
	}
}
