package manifest

import "testing"

// TestDuplicateKeys checks that a key written twice in one mapping is an
// error at its second line, after the YAML 1.1 reading kubectl gives keys,
// in YAML and in JSON; the same key in different mappings is fine.
func TestDuplicateKeys(t *testing.T) {
	for _, tc := range []struct {
		name, data, want string
	}{
		{"crd.yaml", "a: 1\nb:\n  c: 1\n  d: 2\n  c: 3\n", `crd.yaml:5: document 1: key "c" is written twice in one mapping (first at line 3), and only the last would be read; remove one`},
		{"crd.yaml", "a: 1\n---\nb: {y: 1, Y: 2}\n", `crd.yaml:3: document 2: key "true" is written twice in one mapping (first at line 3), and only the last would be read; remove one`},
		{"crd.yaml", "b:\n  'true': 1\n  on: 2\n", `crd.yaml:3: document 1: key "true" is written twice in one mapping (first at line 2), and only the last would be read; remove one`},
		{"crd.json", "{\"a\": {\"b\": 1,\n \"b\": 2}}", `crd.json:2: document 1: key "b" is written twice in one mapping (first at line 1), and only the last would be read; remove one`},
		{"crd.yaml", "a: {b: 1}\nc: {b: 1}\nd: &x {e: 1}\nf: *x\n", ""},
	} {
		_, err := Parse(tc.name, []byte(tc.data))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("Parse(%q) = %q, want %q", tc.data, got, tc.want)
		}
	}
}
