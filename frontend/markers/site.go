package markers

import (
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/mut2cel/mut2cel/decl"
)

// site is a mark and where it was written.
type site struct {
	mark   mark
	source decl.Source
	// field is the struct field marked, nil for a marked type.
	field *ast.Field
}

// sites finds every mark of the packages the parser read, by id.
// controller-tools keeps the node a marker belongs to, not the marker's
// comment; the comment is the one of that text nearest above the node
// (markerLines), which is where the collector takes a node's markers from.
func sites(parser *crd.Parser, col *ctmarkers.Collector) map[int]site {
	out := map[int]site{}
	seen := map[*loader.Package]bool{}
	comments := commentIndex{}
	for ident := range parser.Types {
		pkg := ident.Package
		if seen[pkg] {
			continue
		}
		seen[pkg] = true
		byNode, err := col.MarkersInPackage(pkg) // cached: no new marks
		if err != nil {
			continue // reported with the package's errors
		}
		for node, values := range byNode {
			field, _ := node.(*ast.Field)
			for _, name := range markerNames {
				if len(values[name]) == 0 {
					continue
				}
				marks := values[name]
				lines := markerLines(pkg, node, marks, comments)
				for i, v := range marks {
					m := v.(mark)
					out[m.id] = site{mark: m, source: lines[i], field: field}
				}
			}
		}
	}
	return out
}

// markerLines gives the source of each mark of one name on node: the
// i-th of n marks with the same text is the i-th of the n comments with
// that text nearest above the node, as the collector reads them in
// source order.
func markerLines(pkg *loader.Package, node ast.Node, marks []interface{}, comments commentIndex) []decl.Source {
	at := pkg.Fset.Position(node.Pos())
	at.Filename = relative(at.Filename)
	byText := comments.of(fileAt(pkg, node.Pos()))
	out := make([]decl.Source, len(marks))
	indices := map[string][]int{}
	for i, v := range marks {
		indices[v.(mark).text] = append(indices[v.(mark).text], i)
	}
	for text, is := range indices {
		all := byText[text]
		above := all[:sort.Search(len(all), func(k int) bool { return all[k] >= node.Pos() })]
		for j, i := range is {
			out[i] = decl.Source{File: at.Filename, Line: at.Line}
			if k := len(above) - len(is) + j; k >= 0 {
				out[i].Line = pkg.Fset.Position(above[k]).Line
			}
		}
	}
	return out
}

// commentIndex holds, for each file, the positions of its marker comments
// by marker text, in source order. Built once a file, it makes finding
// the comments above a node a binary search: scanning the file's
// comments for every node took 34 s on 30,000 marked fields.
type commentIndex map[*ast.File]map[string][]token.Pos

// of indexes f on first use; a nil f (a node outside the package's
// files) has no comments.
func (ix commentIndex) of(f *ast.File) map[string][]token.Pos {
	if f == nil {
		return nil
	}
	if byText, ok := ix[f]; ok {
		return byText
	}
	byText := map[string][]token.Pos{}
	for _, g := range f.Comments {
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//") {
				if text := markerText(c.Text); strings.HasPrefix(text, "+") {
					byText[text] = append(byText[text], c.Pos())
				}
			}
		}
	}
	ix[f] = byText
	return byText
}

// markerText is a comment's marker as the collector reads it, and as
// mark.text keeps it (an empty value reads as no value).
func markerText(comment string) string {
	return strings.TrimSuffix(strings.TrimSpace(comment[2:]), "=")
}

// relative writes a file as go vet and the go command name files in
// messages: relative to the working directory when that is shorter
// (../api/v1/types.go too), else absolute.
func relative(file string) string {
	wd, err := os.Getwd()
	if err != nil || !filepath.IsAbs(file) {
		return file
	}
	if rel, err := filepath.Rel(wd, file); err == nil && len(rel) < len(file) {
		return rel
	}
	return file
}

// sourceIn reads the position of a package error. go list writes
// positions relative to the directory it runs in, and controller-tools
// runs it in the directory of each pattern (api for ./api/...), so that
// api/v1/types.go came out as v1/types.go. A relative file is looked up
// by its trailing path among the files of each list in turn (those of the
// packages named, then of all packages loaded), and written relative to
// the working directory when one file of a list has that path.
func sourceIn(pos string, lists ...[]string) decl.Source {
	s := sourceOf(pos)
	if s.File == "" || filepath.IsAbs(s.File) {
		return s
	}
	tail := string(filepath.Separator) + filepath.Clean(filepath.FromSlash(s.File))
	for _, files := range lists {
		var found []string
		for _, f := range files {
			if filepath.IsAbs(f) && strings.HasSuffix(f, tail) && !slices.Contains(found, f) {
				found = append(found, f)
			}
		}
		if len(found) == 1 {
			s.File = relative(found[0])
			return s
		}
	}
	return s
}

func fileAt(pkg *loader.Package, pos token.Pos) *ast.File {
	for _, f := range pkg.Syntax {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// sourceOf reads a position as go/packages writes it: file:line:col,
// file:line, or something else (a package) that is kept as the file.
func sourceOf(pos string) decl.Source {
	parts := strings.Split(pos, ":")
	numbers := 0
	for numbers < 2 && numbers < len(parts)-1 {
		if _, err := strconv.Atoi(parts[len(parts)-1-numbers]); err != nil {
			break
		}
		numbers++
	}
	if numbers == 0 {
		return decl.Source{File: pos}
	}
	file := relative(strings.Join(parts[:len(parts)-numbers], ":"))
	line, _ := strconv.Atoi(parts[len(parts)-numbers])
	return decl.Source{File: file, Line: line}
}
