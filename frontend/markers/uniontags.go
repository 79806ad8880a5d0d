package markers

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/mut2cel/mut2cel/decl"
)

// The union markers. controller-tools' collector cannot read
// validation-gen's tags with arguments (+k8s:unionMember(union: "a")):
// their names carry the arguments. So union markers are read from the
// comments here, struct by struct, and the struct's schema is found with
// a sentinel of its own (injectUnions).
const (
	// The KEP's (KEP-1027, "Go tags").
	tagUnion              = "union"              // on a struct: its optional fields are one union
	tagUnionDiscriminator = "unionDiscriminator" // on a field: the discriminator
	tagUnionDeprecated    = "unionDeprecated"    // on a field: a member of the struct's inlined union
	// validation-gen's.
	tagK8sMember        = "k8s:unionMember"        // exactly one
	tagK8sDiscriminator = "k8s:unionDiscriminator" // with union=
	tagK8sZeroOrOne     = "k8s:zeroOrOneOfMember"  // at most one
	tagK8sMode          = "k8s:modeDiscriminator"  // refused (docs/semantics.md 11.6)
	tagK8sIfMode        = "k8s:ifMode"             // refused
	// controller-gen's, on a struct: JSON names separated by ";".
	tagExactlyOneOf = "kubebuilder:validation:ExactlyOneOf"
	tagAtMostOneOf  = "kubebuilder:validation:AtMostOneOf"
)

var (
	fieldUnionTags = []string{tagUnionDiscriminator, tagUnionDeprecated, tagK8sMember, tagK8sDiscriminator, tagK8sZeroOrOne}
	typeUnionTags  = []string{tagUnion, tagExactlyOneOf, tagAtMostOneOf}
)

// unionTag is one union marker as written.
type unionTag struct {
	name string
	// union and member are validation-gen's union: and memberName:
	// arguments.
	union, member string
	// fields are the JSON names of controller-gen's ExactlyOneOf and
	// AtMostOneOf.
	fields []string
	text   string
	source decl.Source
}

// unionStruct is a struct type with union markers, on it or its fields.
type unionStruct struct {
	id     int // of the sentinel that finds its schema
	name   string
	pkg    *loader.Package
	spec   *ast.TypeSpec
	tags   []unionTag
	fields []unionField
}

// unionField is one field of a unionStruct.
type unionField struct {
	// goName is the Go field name, the default discriminator value; json
	// is the property name, "" for an inline or embedded field or one
	// left out of the schema (json:"-").
	goName, json string
	tags         []unionTag
	// pointer: its Go type is a pointer, unset where nil; a field of a
	// value type is unset at its zero value (zeroIsUnset).
	pointer bool
}

// readUnionTags finds the structs of pkgs that carry union markers, and
// the problems of the markers, at their lines. A struct's markers are
// those of the comment above the type (or above its type declaration),
// a field's those of the comment above the field.
func readUnionTags(pkgs []*loader.Package) ([]*unionStruct, decl.Errors) {
	var out []*unionStruct
	var errs decl.Errors
	for _, pkg := range pkgs {
		pkg.NeedSyntax()
		for i, f := range pkg.Syntax {
			at := filePositions(pkg.CompiledGoFiles[i], f)
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.TYPE {
					continue
				}
				for _, spec := range gd.Specs {
					ts := spec.(*ast.TypeSpec)
					doc := ts.Doc
					if doc == nil && len(gd.Specs) == 1 {
						doc = gd.Doc
					}
					s, e := readStruct(at, ts, doc)
					errs = append(errs, e...)
					if s != nil {
						s.id, s.pkg, s.spec = int(lastID.Add(1)), pkg, ts
						out = append(out, s)
					}
				}
			}
		}
	}
	return out, errs
}

// readStruct reads the union markers of one type; nil when it has none.
func readStruct(at positions, ts *ast.TypeSpec, doc *ast.CommentGroup) (*unionStruct, decl.Errors) {
	s := &unionStruct{name: ts.Name.Name}
	typeTags, errs := readTags(at, doc, typeUnionTags, fieldUnionTags, "a struct type")
	s.tags = typeTags
	marked := len(typeTags) > 0
	st, isStruct := ts.Type.(*ast.StructType)
	if !isStruct {
		if marked {
			errs = append(errs, &decl.Error{Source: typeTags[0].source, Detail: typeTags[0].text + ": belongs on a struct type, whose fields are the union's members"})
		}
		return nil, errs
	}
	for _, field := range st.Fields.List {
		tags, e := readTags(at, field.Doc, fieldUnionTags, typeUnionTags, "a field")
		errs = append(errs, e...)
		name, _, _ := strings.Cut(loader.ParseAstTag(field.Tag).Get("json"), ",")
		if isInline(field) || name == "-" {
			name = ""
		}
		for _, id := range field.Names {
			s.fields = append(s.fields, unionField{goName: id.Name, json: name, tags: tags, pointer: isPointer(field.Type)})
		}
		if field.Names == nil {
			if len(tags) > 0 {
				errs = append(errs, &decl.Error{Source: tags[0].source, Detail: tags[0].text + ": an embedded field is no property of its own and cannot be a member or the discriminator: mark the fields of the embedded struct"})
			}
			s.fields = append(s.fields, unionField{})
		}
		marked = marked || len(tags) > 0
	}
	if !marked {
		return nil, errs
	}
	return s, errs
}

// readTags reads the union markers of one comment: those of names, and
// an error for those of misplaced (written on the other kind of node,
// where) and for validation-gen's mode tags.
func readTags(at positions, doc *ast.CommentGroup, names, misplaced []string, where string) ([]unionTag, decl.Errors) {
	if doc == nil {
		return nil, nil
	}
	var out []unionTag
	var errs decl.Errors
	for _, c := range doc.List {
		if !strings.HasPrefix(c.Text, "//") {
			continue
		}
		text := strings.TrimSpace(c.Text[2:])
		if !strings.HasPrefix(text, "+") {
			continue
		}
		src := at(c.Pos())
		name, args, hasArgs, value := splitTag(text[1:])
		if isStabilityWrapper(name) {
			inner, err := unwrap(name, args, hasArgs, value)
			if err != nil {
				errs = append(errs, &decl.Error{Source: src, Detail: text + ": " + err.Error()})
				continue
			}
			if !slices.Contains(names, inner.name) && !slices.Contains(misplaced, inner.name) && inner.name != tagK8sMode && inner.name != tagK8sIfMode {
				continue // a wrapped tag of another kind: not a union's
			}
			name, args, hasArgs, value = inner.name, inner.args, inner.hasArgs, inner.value
		}
		switch {
		case name == tagK8sMode || name == tagK8sIfMode:
			errs = append(errs, &decl.Error{Source: src, Detail: "+" + name + ": not read: it makes the validation of other fields depend on a mode value, which is not a union of members; mut2cel has no declaration for it yet (docs/semantics.md, 11.6)"})
			continue
		case slices.Contains(misplaced, name):
			errs = append(errs, &decl.Error{Source: src, Detail: fmt.Sprintf("+%s: cannot stand on %s (docs/markers.md, \"Unions\")", name, where)})
			continue
		case !slices.Contains(names, name):
			continue
		}
		t := unionTag{name: name, text: text, source: src}
		if err := t.parse(args, hasArgs, value); err != nil {
			errs = append(errs, &decl.Error{Source: src, Detail: text + ": " + err.Error()})
			continue
		}
		out = append(out, t)
	}
	return out, errs
}

// splitTag splits a marker without its "+": the name, the arguments in
// parentheses (validation-gen's named arguments), and the value after
// "=" (controller-gen's), a trailing "# comment" dropped.
func splitTag(text string) (name, args string, hasArgs bool, value string) {
	text = stripTagComment(text)
	end := strings.IndexAny(text, "(= ")
	if end < 0 {
		return text, "", false, ""
	}
	name, rest := text[:end], text[end:]
	if strings.HasPrefix(rest, "(") {
		close := closingParen(rest)
		if close < 0 {
			return name, rest[1:], true, ""
		}
		args, hasArgs, rest = rest[1:close], true, rest[close+1:]
	}
	value = strings.TrimPrefix(strings.TrimSpace(rest), "=")
	return name, args, hasArgs, value
}

// parse reads the arguments a tag takes.
func (t *unionTag) parse(args string, hasArgs bool, value string) error {
	switch t.name {
	case tagExactlyOneOf, tagAtMostOneOf:
		for _, f := range strings.Split(value, ";") {
			if f = strings.TrimSpace(f); f != "" {
				t.fields = append(t.fields, f)
			}
		}
		if len(t.fields) == 0 {
			return fmt.Errorf("name the members, as in +%s=a;b", t.name)
		}
		return nil
	case tagK8sMember, tagK8sDiscriminator, tagK8sZeroOrOne:
	default:
		if hasArgs || value != "" {
			return fmt.Errorf("the KEP's marker takes no value")
		}
		return nil
	}
	if value != "" {
		return fmt.Errorf("give arguments in parentheses, as in +%s(union: \"name\")", t.name)
	}
	if !hasArgs {
		return nil
	}
	for _, arg := range strings.Split(args, ",") {
		key, v, ok := strings.Cut(arg, ":")
		key = strings.TrimSpace(key)
		v = strings.TrimSpace(v)
		if uq, err := strconv.Unquote(v); err == nil {
			v = uq
		}
		switch {
		case !ok || v == "":
			return fmt.Errorf("argument %q: want key: \"value\"", strings.TrimSpace(arg))
		case key == "union":
			t.union = v
		case key == "memberName" && t.name != tagK8sDiscriminator:
			t.member = v
		default:
			if t.name == tagK8sDiscriminator {
				return fmt.Errorf("unknown argument %q: +%s takes union: only", key, t.name)
			}
			return fmt.Errorf("unknown argument %q: +%s takes union: and memberName:", key, t.name)
		}
	}
	return nil
}

// positions gives the source of a position in one file.
type positions func(token.Pos) decl.Source

// filePositions places positions in the file f parsed from name by
// counting its lines: the loader gives a package its file set only when
// it type-checks it, after the union markers are read.
// The file is read on the first marker found in it.
func filePositions(name string, f *ast.File) positions {
	var src []byte
	return func(pos token.Pos) decl.Source {
		file := relative(name)
		if src == nil {
			src, _ = os.ReadFile(name)
		}
		off := int(pos - f.FileStart)
		if off < 0 || off > len(src) {
			return decl.Source{File: file}
		}
		return decl.Source{File: file, Line: 1 + bytes.Count(src[:off], []byte("\n"))}
	}
}
