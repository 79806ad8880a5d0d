package crd_test

import (
	"strings"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"

	"github.com/mut2cel/mut2cel/crd"
)

// TestTypedFormatsMatchTheApiserver checks TypedFormats against the
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
		if tf, ok := crd.TypedFormats[f]; ok {
			want = tf.CELType
		}
		if got != want {
			t.Errorf("format %s: the apiserver declares %s, crd.TypedFormats says %s", f, got, want)
		}
	}
	for name, tf := range crd.TypedFormats {
		if tf.Spellings == "" {
			continue
		}
		s := &schema.Structural{Generic: schema.Generic{Type: "string"}, ValueValidation: &schema.ValueValidation{Format: name}}
		pair := strings.Split(tf.Spellings, " and ")
		if len(pair) != 2 || pair[0] == pair[1] {
			t.Fatalf("format %s: spellings %q are not two strings", name, tf.Spellings)
		}
		if eq := cel.UnstructuredToVal(pair[0], s).Equal(cel.UnstructuredToVal(pair[1], s)); eq.Value() != true {
			t.Errorf("format %s: %s == %s is %v in the apiserver's CEL, want true", name, pair[0], pair[1], eq.Value())
		}
	}
}
