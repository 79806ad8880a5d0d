package diag

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestShorten(t *testing.T) {
	real := "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[template].properties[spec].properties[containers].items" +
		".properties[env].items.properties[valueFrom].properties[configMapKeyRef].properties[name]"
	long := strings.Repeat("n", 2000)
	for _, tc := range []struct{ name, text, want string }{
		{"short text", "crd.yaml:3: version v1, .spec.a[*][\"x.y\"]: Not found", "crd.yaml:3: version v1, .spec.a[*][\"x.y\"]: Not found"},
		{"a real deep path, as the apiserver writes it", real + ": Forbidden", real + ": Forbidden"},
		{"64 steps", "at " + strings.Repeat(".a", 64) + ": x", "at " + strings.Repeat(".a", 64) + ": x"},
		{"65 steps", "at " + strings.Repeat(".a", 65) + ": x", "at .a.a.a.a … (57 more) … .a.a.a.a: x"},
		{"10,000 steps", "d.yaml:5: version v1, " + strings.Repeat(".a", 10000) + ": Not found",
			"d.yaml:5: version v1, .a.a.a.a … (9,992 more) … .a.a.a.a: Not found"},
		{"every kind of step", ".spec" + strings.Repeat(`[*]["x.y"].b`, 30) + "[*].z",
			`.spec[*]["x.y"].b … (85 more) … ["x.y"].b[*].z`},
		{"as the apiserver writes it", "spec.versions[0]" + strings.Repeat(".properties[a]", 40) + ".items: bad",
			"spec.versions[0].properties … (76 more) … [a].properties[a].items: bad"},
		{"long names", "at ." + long + ".b: x",
			"at .nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn… (1,953 more bytes) …nnnnnnnnnnnnnnnn.b: x"},
		{"a long word", "value " + long + " is bad",
			"value " + long[:64] + "… (1,904 more bytes) …" + long[:32] + " is bad"},
		{"a long word on its own line", "first\n" + long, "first\n" + long[:64] + "… (1,904 more bytes) …" + long[:32]},
	} {
		if got := Shorten(tc.text); got != tc.want {
			t.Errorf("%s: Shorten(%.80q...) =\n%q\nwant\n%q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestShortenCutsAtCharacters cuts long names of characters of two, three
// and four bytes: the text stays UTF-8.
func TestShortenCutsAtCharacters(t *testing.T) {
	for _, r := range []string{"é", "€", "𝄞"} {
		for _, text := range []string{strings.Repeat(r, 1500), "." + strings.Repeat(r, 1500) + ".b"} {
			got := Shorten(text)
			if !utf8.ValidString(got) || len(got) > 200 {
				t.Errorf("Shorten of %d bytes of %s = %q: not UTF-8, or long", len(text), r, got)
			}
		}
	}
}

// TestWrappedShortensJSONDoesNot checks that a diagnostic as a command
// prints it shortens a long path, in its field and its message, and its
// JSON, which programs read, and its String, which errors hold, keep
// them whole.
func TestWrappedShortensJSONDoesNot(t *testing.T) {
	var path []interface{}
	for range 5000 {
		path = append(path, "properties", "a")
	}
	long := strings.Repeat(".a", 5000)
	d := Diagnostic{File: "d.yaml", Line: 5, Path: path, Where: "version v1, " + long, Type: NotFound, Detail: "no such node",
		Reasons: []string{"the value at " + long + " is bad"}}
	want := "d.yaml:5: properties[a].properties[a] … (9,992 more) … .properties[a].properties[a]: version v1, .a.a.a.a … (4,992 more) … .a.a.a.a: Not found: no such node\n" +
		"  - the value at .a.a.a.a … (4,992 more) … .a.a.a.a is bad"
	if got := d.Wrapped(); got != want {
		t.Errorf("Wrapped() =\n%s\nwant\n%s", got, want)
	}
	if got := d.String(); !strings.Contains(got, long) {
		t.Errorf("String() shortened the path: %.300s", got)
	}
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Field, Detail string
		Reasons       []string
	}
	if err := json.Unmarshal(data, &j); err != nil {
		t.Fatal(err)
	}
	if j.Field != RenderPath(path) || j.Detail != "version v1, "+long+": Not found: no such node" || j.Reasons[0] != d.Reasons[0] {
		t.Errorf("JSON shortened what programs read: %.300s", data)
	}
}

// BenchmarkShorten shortens a message quoting a path of 100,000 steps.
func BenchmarkShorten(b *testing.B) {
	text := "d.yaml:5: version v1, " + strings.Repeat(".a", 100000) + ": Not found"
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Shorten(text)
	}
}
