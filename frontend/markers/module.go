package markers

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// resolve gives the import paths of the packages patterns match, as go
// list matches them in the module of dir: "./..." stops at nested modules
// and skips testdata, vendor and directories starting with "." or "_".
// controller-tools' loader would instead walk the directories below a
// "..." pattern for nested go.mod files itself, everywhere: outside a
// module, from /, that is the whole disk. So a pattern whose directory is
// in no module is refused before anything is walked or listed.
func resolve(dir string, patterns []string) ([]string, error) {
	for _, p := range patterns {
		if err := inModule(patternDir(dir, p)); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName, Dir: dir}, patterns...)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", strings.Join(patterns, " "), err)
	}
	var paths []string
	var errs []error
	for _, p := range pkgs {
		for _, e := range p.Errors {
			errs = append(errs, errors.New(e.Msg))
		}
		if len(p.Errors) == 0 {
			paths = append(paths, p.PkgPath)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s: matched no packages", strings.Join(patterns, " "))
	}
	return paths, nil
}

// patternDir is the directory a pattern is resolved in: the directory it
// names, up to its first "..." element, for a file system pattern (one
// that is rooted or starts with a "." or ".." element, as go help
// packages says); dir for an import path pattern.
func patternDir(dir, pattern string) string {
	p := filepath.ToSlash(pattern)
	if !filepath.IsAbs(pattern) && p != "." && p != ".." && !strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../") {
		return dir
	}
	if i := strings.Index(p, "..."); i >= 0 {
		p = p[:strings.LastIndex(p[:i], "/")+1]
	}
	if filepath.IsAbs(pattern) {
		return filepath.FromSlash(p)
	}
	return filepath.Join(dir, filepath.FromSlash(p))
}

// inModule refuses a directory that no go.mod or go.work file in it or
// above it puts in a module, as the go command looks for them.
func inModule(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	for d := abs; ; d = filepath.Dir(d) {
		for _, name := range []string{"go.mod", "go.work"} {
			if info, err := os.Stat(filepath.Join(d, name)); err == nil && info.Mode().IsRegular() {
				return nil
			}
		}
		if filepath.Dir(d) == d {
			return fmt.Errorf("%s is not in a Go module (no go.mod in it or any directory above): give the packages of a module, from inside it, as go list takes them", abs)
		}
	}
}
