package crd

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// notYetMoved are the files, relative to the module root, that still
// spell the document's spec.versions or openAPIV3Schema themselves.
// Issue 23 moves every one of them to the model; the list only shrinks.
var notYetMoved = map[string]string{
	// kube.Structural names the schema root in the apiserver's structural
	// errors; crd imports kube, so it cannot ask crd.RootField until the
	// model passes that path in.
	"internal/kube/kube.go": "the root of ValidateStructural's field paths",
	// The tests' minimal CRD documents are written by hand; they will be
	// built from a model instead.
	"testkit/testcrd/testcrd.go": "writes test documents",
	// The random documents of the tests of translate and verify, written
	// by hand in tests before they were shared.
	"testkit/randomcrd/randomcrd.go": "writes random test documents",
}

// TestOnlyTheModelReadsVersions checks that the CRD document's versions
// and schema roots are read here alone (issue 23, "a CRD model read
// once"): no other package's code has the string literal
// "openAPIV3Schema", "versions" in a file that also has "spec", or a
// literal that spells a path through spec/versions. A file
// in notYetMoved may, and must: an entry no longer needed fails too, so
// that the list shrinks with the code.
func TestOnlyTheModelReadsVersions(t *testing.T) {
	found := map[string][]string{}
	root := ".."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "crd" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		if lits := readerLiterals(t, path); len(lits) > 0 {
			rel, _ := filepath.Rel(root, path)
			found[filepath.ToSlash(rel)] = lits
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range sortedKeys(found) {
		if _, ok := notYetMoved[file]; !ok {
			t.Errorf("%s reads the CRD document's %s itself: ask the crd model (crd.Read)", file, strings.Join(found[file], ", "))
		}
	}
	for _, file := range sortedKeys(notYetMoved) {
		if _, ok := found[file]; !ok {
			t.Errorf("%s no longer reads the CRD document's versions: remove it from notYetMoved", file)
		}
	}
}

// readerLiterals lists the string literals of a Go file, struct tags
// aside, that name the document's versions or schema roots.
func readerLiterals(t *testing.T, path string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	tags := map[*ast.BasicLit]bool{}
	lits := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			tags[n.Tag] = true
		case *ast.BasicLit:
			if n.Kind == token.STRING && !tags[n] {
				if s, err := strconv.Unquote(n.Value); err == nil {
					lits[s] = true
				}
			}
		}
		return true
	})
	var out []string
	for s := range lits {
		if strings.Contains(s, "/spec/versions") || strings.Contains(s, "spec.versions[") {
			out = append(out, strconv.Quote(s))
		}
	}
	slices.Sort(out)
	if lits["openAPIV3Schema"] {
		out = append(out, `"openAPIV3Schema"`)
	}
	if lits["versions"] && lits["spec"] {
		out = append(out, `"spec" and "versions"`)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// rawHelpers are the names of the helpers that index a decoded CRD
// document or decode it whole, which the model now provides (NodeAt,
// Walk, Mapping, Typed, TypedSchema): a package that defines one again
// reads the document behind the model's back.
var rawHelpers = map[string]bool{
	"nestedMap": true, "nestedSlice": true, "nestedField": true,
	"walkSchema": true, "convertJSON": true,
}

// TestOnlyTheModelIndexesDocuments checks that no package but crd
// defines a raw-indexing helper (rawHelpers) or decodes a whole CRD
// document into the apiserver's types through JSON (a function that
// calls json.Unmarshal and builds a CustomResourceDefinition): ask the
// model (issue 23, "only the model package indexes the CRD document").
func TestOnlyTheModelIndexesDocuments(t *testing.T) {
	root := ".."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "crd" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		for _, what := range documentIndexing(t, path) {
			t.Errorf("%s %s: ask the crd model instead", filepath.ToSlash(rel), what)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// documentIndexing lists what the functions of a Go file do to a CRD
// document that only the model may.
func documentIndexing(t *testing.T, path string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok {
			continue
		}
		if rawHelpers[fn.Name.Name] {
			out = append(out, "defines "+fn.Name.Name)
		}
		if fn.Body != nil && decodesWholeCRD(fn.Body) {
			out = append(out, "decodes a whole CRD through JSON in "+fn.Name.Name)
		}
	}
	return out
}

// decodesWholeCRD reports whether body calls json.Unmarshal and builds a
// CustomResourceDefinition.
func decodesWholeCRD(body *ast.BlockStmt) bool {
	unmarshal, typed := false, false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Unmarshal" {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "json" {
					unmarshal = true
				}
			}
		case *ast.CompositeLit:
			if sel, ok := n.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "CustomResourceDefinition" {
				typed = true
			}
		}
		return true
	})
	return unmarshal && typed
}
