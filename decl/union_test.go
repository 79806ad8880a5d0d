package decl_test

import (
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/decl"
)

func TestParseUnions(t *testing.T) {
	for _, c := range []struct {
		yaml string
		want []decl.Union
		text string
	}{
		{
			yaml: "- discriminator: type\n  fields-to-discriminateBy:\n    redirect: Redirect\n    header: Header\n",
			want: []decl.Union{{Discriminator: "type", Members: []decl.UnionMember{{"header", "Header"}, {"redirect", "Redirect"}}}},
			text: `[{"discriminator": "type", "fields-to-discriminateBy": {"header": "Header", "redirect": "Redirect"}}]`,
		},
		{
			yaml: "- fields-to-discriminateBy: {b: , a: }\n  exactlyOne: true\n",
			want: []decl.Union{{Members: []decl.UnionMember{{"a", ""}, {"b", ""}}, ExactlyOne: true}},
			text: `[{"fields-to-discriminateBy": {"a": null, "b": null}, "exactlyOne": true}]`,
		},
		{
			yaml: "- fields-to-discriminateBy: {b: , a: , c: }\n  zeroIsUnset: [c, a]\n",
			want: []decl.Union{{Members: []decl.UnionMember{{"a", ""}, {"b", ""}, {"c", ""}}, ZeroIsUnset: []string{"a", "c"}}},
			text: `[{"fields-to-discriminateBy": {"a": null, "b": null, "c": null}, "zeroIsUnset": ["a", "c"]}]`,
		},
	} {
		var v interface{}
		if err := yaml.Unmarshal([]byte(c.yaml), &v); err != nil {
			t.Fatal(err)
		}
		got, err := decl.ParseUnions(v)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseUnions(%s) = %+v, %v, want %+v", c.yaml, got, err, c.want)
			continue
		}
		if text := decl.UnionsText(got); text != c.text {
			t.Errorf("UnionsText(%+v) = %s, want %s", got, text, c.text)
		}
		if again, err := decl.ParseUnionsText(c.text); err != nil || !reflect.DeepEqual(again, c.want) {
			t.Errorf("ParseUnionsText(%s) = %+v, %v, want %+v", c.text, again, err, c.want)
		}
	}
}

func TestUnionsRefused(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"{a: b}", "must be a list of unions"},
		{"[]", "must be a list of unions"},
		{"[{discriminator: 1, fields-to-discriminateBy: {a: A}}]", "discriminator: must be the name of a string property"},
		{"[{fields-to-discriminateBy: [a, b]}]", "must be a map of member property"},
		{"[{fields-to-discriminateBy: {a: 1}}]", "the discriminator value must be a string"},
		{"[{fields-to-discriminateBy: {a: A}, exactlyOne: yes please}]", "exactlyOne: must be true or false"},
		{"[{members: [a]}]", `unknown key "members"`},
		{"[{fields-to-discriminateBy: {a: , b: }, zeroIsUnset: a}]", "zeroIsUnset: must be a list of members"},
		{"[{fields-to-discriminateBy: {a: , b: }, zeroIsUnset: [a, a]}]", "zeroIsUnset: a is named twice"},
		{"[{fields-to-discriminateBy: {a: , b: }, zeroIsUnset: [c]}]", "union 1: zeroIsUnset: c is not a member"},
		{"[{discriminator: type}]", "at least one member is required"},
		{"[{discriminator: type, fields-to-discriminateBy: {a: A, b: }}]", "member b has no discriminator value"},
		{"[{discriminator: type, fields-to-discriminateBy: {a: X, b: X}}]", `members a and b have the same discriminator value "X"`},
		{"[{discriminator: a, fields-to-discriminateBy: {a: A, b: B}}]", "the discriminator a cannot be a member too"},
		{"[{fields-to-discriminateBy: {a: , b: }}, {fields-to-discriminateBy: {b: , c: }}]", "union 2: b is a member of union 1 too"},
	} {
		var v interface{}
		if err := yaml.Unmarshal([]byte(c.yaml), &v); err != nil {
			t.Fatal(err)
		}
		k, _ := decl.KindNamed(decl.ExtUnions)
		_, err := k.ReadChecked(v)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadChecked(%s) = %v, want an error with %q", c.yaml, err, c.want)
		}
	}
}
