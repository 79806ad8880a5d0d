package testcrd

import (
	"strings"
	"testing"
)

func TestReadVerdicts(t *testing.T) {
	v := ReadVerdicts(t, "../../testdata/kep/examples.yaml")
	if len(v.KEP) != 10 || len(v.Blog) != 4 {
		t.Errorf("ReadVerdicts = %d KEP examples and %d blog patterns, want 10 and 4", len(v.KEP), len(v.Blog))
	}
	// YAML 1.2: the property n of example 2 is not the boolean false.
	ex := v.KEP[1]
	if got, want := ex.Schema("Immutable"), `"properties":{"n":{"type":"string"}},"type":"object","x-kubernetes-mutability":"Immutable"`; !strings.Contains(got, want) {
		t.Errorf("%s: Schema(Immutable) = %s, want it to hold %s", ex.Name, got, want)
	}
	if got, want := ex.Transitions[0].New, `{"foo":[{"n":"a"}]}`; got != want {
		t.Errorf("%s: first update to %s, want %s", ex.Name, got, want)
	}
}

func TestParseVerdictsErrors(t *testing.T) {
	const schema = "  schema: {type: object, properties: {foo: {type: string, x-kubernetes-mutability: $VALUE}}}\n"
	for _, c := range []struct{ name, text, want string }{
		{"no placeholder", "kep:\n- name: a\n  cites: c\n  values: I\n  schema: {type: object}\n  transitions: [{old: {}, new: {}, allow: I}]\n",
			`t.yaml:5: example "a": schema: no $VALUE for the declared value`},
		{"bad value", "kep:\n- name: a\n  cites: c\n  values: IX\n" + schema + "  transitions: [{old: {}, new: {}, allow: I}]\n",
			`t.yaml:5: example "a": values "IX": want some of the letters I, A, R, each once`},
		{"allow outside values", "kep:\n- name: a\n  cites: c\n  values: I\n" + schema + "  transitions: [{old: {}, new: {}, allow: A}]\n",
			`t.yaml:5: example "a": transition on line 6: allow: want some of the letters I, each once, or ""`},
		{"allow missing", "kep:\n- name: a\n  cites: c\n  values: I\n" + schema + "  transitions: [{old: {}, new: {}}]\n",
			`t.yaml:5: example "a": transition on line 6: allow: want some of the letters I, each once, or ""`},
		{"object not a mapping", "kep:\n- name: a\n  cites: c\n  values: I\n" + schema + "  transitions: [{old: [], new: {}, allow: I}]\n",
			`t.yaml:5: example "a": transition on line 6: old: want a mapping`},
		{"name twice", "kep:\n- name: a\n  cites: c\n  values: I\n" + schema + "  transitions: [{old: {}, new: {}, allow: I}]\n" +
			"blog:\n- name: a\n  cites: c\n  values: I\n" + schema + "  transitions: [{old: {}, new: {}, allow: I}]\n",
			`t.yaml:11: example "a": the name is taken`},
		{"unknown field", "kep:\n- name: a\n  cite: c\n", "t.yaml: yaml: unmarshal errors:\n  line 3: field cite not found in type testcrd.exampleYAML"},
	} {
		if _, err := parseVerdicts("t.yaml", []byte(c.text)); err == nil || err.Error() != c.want {
			t.Errorf("%s: parseVerdicts = %v, want %s", c.name, err, c.want)
		}
	}
}
