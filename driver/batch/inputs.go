package batch

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mut2cel/mut2cel/manifest"
)

// StdinName is how standard input is named in messages.
const StdinName = "<stdin>"

// Input is one file's name and contents.
type Input struct {
	Name string
	Data []byte
}

// manifestExts are the file name endings looked for in directories.
var manifestExts = []string{".yaml", ".yml", ".json"}

// Collect reads the inputs named by paths: files as given, directories
// searched recursively for manifests (skipping hidden directories), and
// "-" for stdin. No paths means stdin. It reads every input it can and
// returns a Diagnostic for each one it cannot, and for each path that
// holds no manifest: a mistyped path in CI must not pass silently. Empty
// standard input is such a path too, as an empty file is: a pipeline
// whose first step printed nothing must not pass either.
func Collect(paths []string, stdin io.Reader) ([]Input, []Diagnostic) {
	if len(paths) == 0 {
		paths = []string{"-"}
	}
	var inputs []Input
	var diags []Diagnostic
	b := newBudget()
	for _, p := range paths {
		if b.spent {
			break
		}
		in, more := b.collect(p, stdin)
		inputs = append(inputs, in...)
		switch {
		case len(more) > 0:
			diags = append(diags, more...)
		case noManifests(in):
			diags = append(diags, Diagnostic{Detail: noManifestsDetail(p, len(in))})
		}
	}
	return inputs, diags
}

// noManifests reports whether none of the inputs holds a document.
func noManifests(inputs []Input) bool {
	for _, in := range inputs {
		if !manifest.Empty(in.Name, in.Data) {
			return false
		}
	}
	return true
}

func noManifestsDetail(path string, files int) string {
	if path == "-" {
		return fmt.Sprintf("no manifests found in %s: it holds no YAML or JSON document", StdinName)
	}
	switch info, err := os.Stat(path); {
	case err != nil || !info.IsDir():
		return fmt.Sprintf("no manifests found in %s: it holds no YAML or JSON document", path)
	case files == 0:
		return fmt.Sprintf("no manifests found in %s: it has no *.yaml, *.yml or *.json file (hidden directories are skipped)", path)
	}
	return fmt.Sprintf("no manifests found in %s: its *.yaml, *.yml and *.json files hold no document", path)
}

// collect reads one path: standard input, a file, or the manifests of a
// directory. Files that are not regular (pipes, devices) are refused
// (ReadFile); a directory's problems are reported file by file, each
// naming its file. Every read is within the budget b.
func (b *budget) collect(path string, stdin io.Reader) ([]Input, []Diagnostic) {
	if path == "-" {
		data, err := b.readAll(StdinName, stdin)
		if err != nil {
			return nil, []Diagnostic{{File: StdinName, Detail: cleanPathError(err).Error()}}
		}
		return []Input{{StdinName, data}}, nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, []Diagnostic{{File: path, Detail: cleanPathError(err).Error()}}
	}
	if !info.IsDir() {
		data, err := b.readFile(path)
		if err != nil {
			return nil, []Diagnostic{{File: path, Detail: readError(err)}}
		}
		return []Input{{path, data}}, nil
	}
	var inputs []Input
	var diags []Diagnostic
	filepath.WalkDir(path, func(p string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
			diags = append(diags, Diagnostic{File: p, Detail: cleanPathError(err).Error()})
			return nil
		case e.IsDir() && p != path && strings.HasPrefix(e.Name(), "."):
			return filepath.SkipDir
		case e.IsDir() || !isManifest(p):
			return nil
		}
		data, err := b.readFile(p)
		if err != nil {
			diags = append(diags, Diagnostic{File: p, Detail: readError(err)})
			if b.spent {
				return filepath.SkipAll
			}
			return nil
		}
		inputs = append(inputs, Input{p, data})
		return nil
	})
	return inputs, diags
}

// readError says why an input could not be read; a pipe or a device can
// be, as standard input, where the user asked for a stream.
func readError(err error) string {
	if errors.Is(err, errNotRegular) {
		return cleanPathError(err).Error() + "; to read a pipe or a device, give it as standard input (-)"
	}
	return cleanPathError(err).Error()
}

func isManifest(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	for _, e := range manifestExts {
		if ext == e {
			return true
		}
	}
	return false
}

// cleanPathError drops the operation and the path from *fs.PathError
// ("open x: no such file"), and the path from *limitError, since the
// message already starts with the path.
func cleanPathError(err error) error {
	switch e := err.(type) {
	case *fs.PathError:
		return e.Err
	case *limitError:
		return errors.New(e.detail)
	}
	return err
}
