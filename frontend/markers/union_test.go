package markers

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/decl"
)

// TestLoadUnions reads testdata/unions: every union marker, each union in
// the one model, at the node its struct lands on.
func TestLoadUnions(t *testing.T) {
	r, err := Load("testdata", "./unions/...")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range r.Sets {
		for _, f := range s.Fields {
			if v, ok := f.Values[decl.ExtUnions]; ok {
				got = append(got, fmt.Sprintf("%s %s %s", f.Path, v, f.Source))
			}
		}
	}
	for _, o := range r.OneOf {
		got = append(got, fmt.Sprintf("oneOf %s %s %v exactly=%v %s", o.Version, o.Path, o.Fields, o.Exactly, o.Source))
	}
	file := "testdata/unions/v1/types.go"
	want := []string{
		// validation-gen: two named unions, memberName, zeroOrOneOfMember
		`.spec.backend [{"discriminator": "kind", "fields-to-discriminateBy": {"bucket": "Bucket", "service": "Svc"}, "exactlyOne": true}, {"fields-to-discriminateBy": {"cert": null, "token": null}, "exactlyOne": true}, {"fields-to-discriminateBy": {"region": null, "zone": null}}] ` + file + ":41",
		// in list items; values default to the Go field name
		`.spec.filters[*] [{"discriminator": "type", "fields-to-discriminateBy": {"requestHeaderModifier": "Header", "requestRedirect": "RequestRedirect"}, "exactlyOne": true}] ` + file + ":29",
		// the KEP's +unionDeprecated and an inlined +union struct
		`.spec.inlined [{"fields-to-discriminateBy": {"alpha": null, "beta": null}}, {"fields-to-discriminateBy": {"field1": null, "field2": null}}] ` + file + ":91",
		// the KEP's +union with +unionDiscriminator
		`.spec.source [{"discriminator": "sourceType", "fields-to-discriminateBy": {"git": "Git", "httpURL": "HTTPURL"}}] ` + file + ":62",
		// validation-gen's, in stability wrappers, with members of value
		// types: unset at their zero value
		`.spec.storage [{"discriminator": "mode", "fields-to-discriminateBy": {"inline": "Inline", "items": "Items", "labels": "Labels", "ref": "Ref", "size": "Size"}, "exactlyOne": true, "zeroIsUnset": ["inline", "items", "labels", "size"]}] ` + file + ":117",
		// controller-gen's
		`.spec.volume [{"fields-to-discriminateBy": {"configMap": null, "secret": null}, "exactlyOne": true}, {"fields-to-discriminateBy": {"readOnly": null, "readWrite": null}}] ` + file + ":74",
		"oneOf v1 .spec.volume [secret configMap] exactly=true " + file + ":74",
		"oneOf v1 .spec.volume [readOnly readWrite] exactly=false " + file + ":75",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Load(testdata/unions) =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLoadUnionErrors: every misplaced or inconsistent union marker is
// an error at its line, all in one run.
func TestLoadUnionErrors(t *testing.T) {
	_, err := Load("testdata", "./badunions/...")
	var errs decl.Errors
	if !errors.As(err, &errs) {
		t.Fatalf("Load(./badunions/...) = %v, want decl.Errors", err)
	}
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	file := "testdata/badunions/v1/types.go"
	mode := ": not read: it makes the validation of other fields depend on a mode value, which is not a union of members; mut2cel has no declaration for it yet (docs/semantics.md, 11.6)"
	want := []string{
		file + ":17: the discriminator type must be a string, not integer",
		file + ":19: union member required is a required field: a member must be optional (+optional or omitempty), or it would always be set",
		file + ":22: twice is a member of the union at " + file + ":21 too: a field may be a member of one union only",
		file + `:25: members twice and other have the same discriminator value "Same": each value selects one member (memberName: sets it)`,
		file + ":28: +k8s:modeDiscriminator" + mode,
		file + ":31: +k8s:ifMode" + mode,
		file + `:34: +union: cannot stand on a field (docs/markers.md, "Unions")`,
		file + `:37: +k8s:unionMember(unions: "x"): unknown argument "unions": +k8s:unionMember takes union: and memberName:`,
		file + ":48: union member nope: not a property of the struct's schema",
		file + ":50: +unionDiscriminator: no union to discriminate: mark the struct +union, or its members +unionDeprecated",
		file + `:55: a field left out of the schema (json:"-") cannot be a union member`,
		file + `:60: +k8s:unionDiscriminator: no +k8s:unionMember of union "nothing" to discriminate (+k8s:zeroOrOneOfMember has no discriminator)`,
		file + ":66: +union: belongs on a struct type, whose fields are the union's members",
		// validation-gen reads members of value types at their zero value
		file + ":72: union member plain is not a pointer, so validation-gen reads it as set where it is not its zero value; but it is a struct, zero where every field is, which no one JSON value says: make the field a pointer",
		file + ":75: union member when is not a pointer, so validation-gen reads it as set where it is not its zero value; but its schema is a string of format date-time, which the apiserver's CEL reads as another type: make the field a pointer",
		// stability wrappers: read around union tags, refused elsewhere
		file + `:78: +k8s:beta(since: "1.36"): mut2cel reads a stability wrapper around the union tags only, and would drop the update tag it holds: write the tag bare, as mut2cel reads it whatever its stability, or remove it`,
		file + `:81: +k8s:beta=+k8s:unionMember: +k8s:beta takes one argument, since: "1.36", and the tag it wraps after =, as in +k8s:beta(since: "1.36")=+k8s:unionMember`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Load(testdata/badunions) errors =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestParseUnionTag reads each spelling of the union markers, as written
// in a comment.
func TestParseUnionTag(t *testing.T) {
	for _, tc := range []struct {
		text          string
		name          string
		union, member string
		fields        []string
		err           string
	}{
		{text: "+union", name: tagUnion},
		{text: "+unionDiscriminator", name: tagUnionDiscriminator},
		{text: "+unionDeprecated", name: tagUnionDeprecated},
		{text: "+k8s:unionMember", name: tagK8sMember},
		{text: `+k8s:unionMember(union: "target")`, name: tagK8sMember, union: "target"},
		{text: `+k8s:unionMember(union: "target", memberName: "Svc")`, name: tagK8sMember, union: "target", member: "Svc"},
		{text: `+k8s:unionMember(memberName: "Svc") # why`, name: tagK8sMember, member: "Svc"},
		{text: "+k8s:unionDiscriminator", name: tagK8sDiscriminator},
		{text: `+k8s:unionDiscriminator(union: "target")`, name: tagK8sDiscriminator, union: "target"},
		{text: "+k8s:zeroOrOneOfMember", name: tagK8sZeroOrOne},
		{text: `+k8s:zeroOrOneOfMember(union: "z")`, name: tagK8sZeroOrOne, union: "z"},
		{text: "+kubebuilder:validation:ExactlyOneOf=a;b", name: tagExactlyOneOf, fields: []string{"a", "b"}},
		{text: "+kubebuilder:validation:AtMostOneOf=b;a;c", name: tagAtMostOneOf, fields: []string{"b", "a", "c"}},
		{text: "+kubebuilder:validation:ExactlyOneOf=", err: "name the members"},
		{text: "+union=true", err: "the KEP's marker takes no value"},
		{text: `+k8s:unionDiscriminator(memberName: "x")`, err: `unknown argument "memberName": +k8s:unionDiscriminator takes union: only`},
		{text: "+k8s:unionMember=x", err: "give arguments in parentheses"},
		{text: "+k8s:unionMember(union)", err: `argument "union": want key: "value"`},
		{text: "+k8s:modeDiscriminator", err: "+k8s:modeDiscriminator: not read"},
		{text: `+k8s:ifMode("A")=+k8s:required`, err: "+k8s:ifMode: not read"},
		{text: `+k8s:beta(since: "1.36")=+k8s:unionMember(union: "a", memberName: "M)")`, name: tagK8sMember, union: "a", member: "M)"},
		{text: `+k8s:alpha(since: "1.35")=+k8s:unionDiscriminator`, name: tagK8sDiscriminator},
		{text: `+k8s:beta=+k8s:unionMember`, err: `+k8s:beta takes one argument, since: "1.36"`},
		{text: `+k8s:beta(since: "1.36", other: "x")=+k8s:unionMember`, err: `+k8s:beta takes one argument`},
		{text: `+k8s:beta(since: "1.36")`, err: `+k8s:beta wraps a tag: write it after =`},
		{text: `+k8s:beta(since: "1.36")=+k8s:alpha(since: "1.35")=+k8s:unionMember`, err: "wraps another stability wrapper"},
		{text: `+k8s:beta(since: "1.36")=+k8s:modeDiscriminator`, err: "+k8s:modeDiscriminator: not read"},
	} {
		names := append(append([]string{}, fieldUnionTags...), typeUnionTags...)
		tags, errs := readTags(func(token.Pos) decl.Source { return decl.Source{File: "f.go", Line: 1} },
			&ast.CommentGroup{List: []*ast.Comment{{Text: "// " + tc.text}}}, names, nil, "a field")
		if tc.err != "" {
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), tc.err) {
				t.Errorf("readTags(%s) = %v, want an error containing %q", tc.text, errs, tc.err)
			}
			continue
		}
		if len(errs) > 0 || len(tags) != 1 {
			t.Errorf("readTags(%s) = %v, %v, want one tag", tc.text, tags, errs)
			continue
		}
		g := tags[0]
		if g.name != tc.name || g.union != tc.union || g.member != tc.member || strings.Join(g.fields, ";") != strings.Join(tc.fields, ";") {
			t.Errorf("readTags(%s) = %s union %q member %q fields %v, want %s union %q member %q fields %v",
				tc.text, g.name, g.union, g.member, g.fields, tc.name, tc.union, tc.member, tc.fields)
		}
	}
}
