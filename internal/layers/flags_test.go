package layers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// libraryDirs are the layers below the drivers: their messages speak of
// options and documents, never of the command line. A diagnostic names
// the option in its Hint, and the drivers and the command word the flag
// (driver/batch's flagHints).
var libraryDirs = []string{"internal", "crd", "decl", "edit", "manifest", "costest", "frontend", "translate", "backend", "verify"}

// flagName finds a long flag (--all-versions) or a lone short one (-w)
// in a string.
var flagName = regexp.MustCompile(`(^|[\s("'])(--[a-z][a-z0-9-]+|-[a-zA-Z])\b`)

// notMessages are string literals of the library that name a flag and are
// no message, by file and literal, with the reason.
var notMessages = map[string]string{}

// TestLibraryMessagesNameNoFlag fails on a string literal of a library
// package that names a command-line flag: a library called from Go, or
// from another command, has no such flag to offer.
func TestLibraryMessagesNameNoFlag(t *testing.T) {
	root := filepath.Join("..", "..") // the module, from this package's directory
	seen := map[string]bool{}
	for _, dir := range libraryDirs {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir() && d.Name() == "testdata":
				return filepath.SkipDir
			case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
				return nil
			}
			rel, _ := filepath.Rel(root, path)
			for _, lit := range flagLiterals(t, path) {
				key := filepath.ToSlash(rel) + ": " + lit
				seen[key] = true
				if _, ok := notMessages[key]; !ok {
					t.Errorf("%s names a flag in %s: say what to do in the library's terms and set a diag.Hint for the command to word", rel, lit)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for key := range notMessages {
		if !seen[key] {
			t.Errorf("notMessages lists %s, which is gone: remove it", key)
		}
	}
}

// flagLiterals returns the string literals of a Go file that name a flag.
func flagLiterals(t *testing.T, path string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		if s, err := strconv.Unquote(lit.Value); err == nil && flagName.MatchString(s) {
			out = append(out, lit.Value)
		}
		return true
	})
	return out
}
