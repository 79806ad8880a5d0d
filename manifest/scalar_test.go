package manifest

import (
	"math/rand"
	"strings"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"
)

func TestRenderScalar(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"self == oldSelf", "self == oldSelf"},
		{"y", "'y'"},
		{"on", "'on'"},
		{"no", "'no'"},
		{"Off", "'Off'"},
		{"true", "'true'"},
		{"~", "'~'"},
		{"", "''"},
		{"1.5", "'1.5'"},
		{"0o17", "'0o17'"},
		{"2001-12-14", "'2001-12-14'"},
		{"=", "="},
		{"<<", "<<"}, // special only as a key
		{"self == 'x'", "self == 'x'"},
		{"'x' == self", `"'x' == self"`},
		{`"x" == self`, `'"x" == self'`},
		{`'a\b'`, `'''a\b'''`},
		{"a: b", "'a: b'"},
		{"a #b", "'a #b'"},
		{"#a", "'#a'"},
		{"!has(self.x)", "'!has(self.x)'"},
		{"size(self) > 0 ", "'size(self) > 0 '"},
		{"tab\there", `"tab\there"`},
		{"bell\a", `"bell\x07"`},
		{"nel\u0085", `"nel\N"`},
		{"bom\ufeff", `"bom\uFEFF"`},
		{"日本語 == self", "日本語 == self"},
		{"a\nb", "|-\n      a\n      b"},
		{"a\nb\n", "|\n      a\n      b"},
		{"a\n\nb\n\n", "|+\n      a\n\n      b\n"},
		{" a\nb", `" a\nb"`},
		{"a\n  \nb", `"a\n  \nb"`},
		{"a\r\nb", `"a\r\nb"`},
		{"\n", `"\n"`},
	} {
		first, more := renderScalar(c.in, 4)
		got := strings.Join(append([]string{first}, more...), "\n")
		if got != c.want {
			t.Errorf("renderScalar(%q) = %q, want %q", c.in, got, c.want)
		}
		checkReadsBack(t, c.in)
	}
}

// TestRenderScalarRandom renders random strings made of characters that
// YAML treats specially and checks that both YAML versions read them back.
func TestRenderScalarRandom(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	alphabet := []rune("ay01.-:#'\"\\ \t\n\r{}[],&*!|>%@`?~=<\u0085\u2028\u00e9😀\ufeff")
	for i := 0; i < 2000; i++ {
		r := make([]rune, rng.Intn(8))
		for j := range r {
			r[j] = alphabet[rng.Intn(len(alphabet))]
		}
		checkReadsBack(t, string(r))
	}
}

// checkReadsBack writes s as a rule in a nested mapping and reads it back
// with yaml.v3 and sigs.k8s.io/yaml.
func checkReadsBack(t *testing.T, s string) {
	t.Helper()
	first, more := renderScalar(s, 4)
	doc := strings.Join(append([]string{"a:\n    k: " + first}, more...), "\n") + "\nb: 1\n"
	var v3 struct{ A map[string]interface{} }
	if err := yaml.Unmarshal([]byte(doc), &v3); err != nil || v3.A["k"] != s {
		t.Errorf("yaml.v3 reads %q back as %q (%v); document:\n%s", s, v3.A["k"], err, doc)
	}
	var v1 struct {
		A map[string]interface{} `json:"a"`
	}
	if err := sigsyaml.Unmarshal([]byte(doc), &v1); err != nil || v1.A["k"] != s {
		t.Errorf("sigs.k8s.io/yaml reads %q back as %q (%v); document:\n%s", s, v1.A["k"], err, doc)
	}
}
