package layers

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/mut2cel/mut2cel"

// order lists the layers, lowest first, by the path prefixes of their
// packages relative to the module.
var order = []struct {
	name     string
	prefixes []string
}{
	{"leaf", []string{"internal/"}},
	{"model", []string{"crd", "decl", "edit", "plan"}},
	{"documents", []string{"manifest"}},
	{"cost", []string{"costest"}},
	{"front end", []string{"frontend/"}},
	{"compiler", []string{"compiler"}},
	{"back end", []string{"backend/"}},
	{"translation", []string{"translate"}},
	{"verify", []string{"verify"}},
	{"driver", []string{"driver/"}},
	{"command", []string{"cmd/"}},
}

// testOnly are the prefixes of packages only tests may import.
var testOnly = []string{"testkit/", "e2e", "examples/", "internal/layers"}

// exceptions are imports that point up a layer today, each with the
// reason it is still there; the test fails when one is gone too, so
// that the list only shrinks.
var exceptions = map[string]string{}

// forbidden are imports inside the verify layer, or down from it, that
// the layer order allows but that would undo why verify is apart. From
// and to are module-relative patterns: "x/..." is x and every package
// below it, "x" is x alone.
var forbidden = []struct {
	from, to, why string
}{
	{"verify/...", "translate", "the reference reads the declarations on its own, so that one misreading cannot hide in both (CONTRIBUTING.md)"},
	{"verify/...", "backend/...", "verify judges by the CRD's rules; a judge of what a back end wrote runs with the drivers (driver/verifyrun)"},
	{"verify/...", "internal/admit", "the apiserver's admission code judges policies, which the drivers do"},
	{"backend/...", "compiler", "a back end prints the plan it is given; compiling is the caller's (a driver, or translate)"},
	{"backend/...", "translate", "a back end prints the plan it is given; translate is a caller of back ends, never their callee"},
}

// only are packages that may import nothing of the module but what they
// list: the command binds flags, prints and maps outcomes to exit codes,
// and each command's work is its driver's.
var only = []struct {
	from string
	to   []string
	why  string
}{
	{"cmd/...", []string{"driver/...", "internal/diag"}, "the command binds flags, prints and maps outcomes to exit codes; the drivers do the work"},
}

type pkg struct {
	ImportPath                string
	Imports                   []string
	TestImports, XTestImports []string
}

// layerOf returns the index of the layer of a module-relative path, or
// -1 for test helpers and anything the table does not name.
func layerOf(rel string) int {
	for i, l := range order {
		for _, p := range l.prefixes {
			if rel == strings.TrimSuffix(p, "/") || strings.HasPrefix(rel, p) || strings.HasPrefix(rel, p+"/") {
				return i
			}
		}
	}
	return -1
}

// matches reports whether the module-relative path rel matches pattern.
func matches(pattern, rel string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return rel == base || strings.HasPrefix(rel, base+"/")
	}
	return rel == pattern
}

func isTestOnly(rel string) bool {
	for _, p := range testOnly {
		if rel == strings.TrimSuffix(p, "/") || strings.HasPrefix(rel, p) {
			return true
		}
	}
	return false
}

func modulePackages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-tags", "server", "-json", module+"/...")
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if e, ok := err.(*exec.ExitError); ok {
			stderr = e.Stderr
		}
		t.Fatalf("go list: %v\n%s", err, stderr)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func rel(path string) (string, bool) {
	if path == module {
		return "", true
	}
	r, ok := strings.CutPrefix(path, module+"/")
	return r, ok
}

// TestImportsPointDown fails on every import of a package of a higher
// layer, and on every test helper imported outside tests.
func TestImportsPointDown(t *testing.T) {
	used := map[string]bool{}
	pkgs := modulePackages(t)
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages of the module: too few to be the whole module", len(pkgs))
	}
	for _, p := range pkgs {
		from, _ := rel(p.ImportPath)
		if isTestOnly(from) {
			continue
		}
		fl := layerOf(from)
		if fl < 0 {
			t.Errorf("%s is in no layer: add its folder to the table in internal/layers", from)
			continue
		}
		for _, imp := range p.Imports {
			to, ok := rel(imp)
			if !ok {
				continue
			}
			edge := from + " -> " + to
			if isTestOnly(to) {
				t.Errorf("%s: a test helper imported by code that is not a test", edge)
				continue
			}
			if tl := layerOf(to); tl > fl {
				if _, ok := exceptions[edge]; ok {
					used[edge] = true
					continue
				}
				t.Errorf("%s: the %s layer imports the %s layer above it", edge, order[fl].name, order[tl].name)
			}
		}
	}
	for edge, why := range exceptions {
		if !used[edge] {
			t.Errorf("exception %q (%s) no longer happens: take it out of the list", edge, why)
		}
	}
}

// TestForbiddenImports fails on every import a rule of forbidden names,
// and on a rule whose patterns match no package, which could never fail.
func TestForbiddenImports(t *testing.T) {
	pkgs := modulePackages(t)
	for _, rule := range forbidden {
		var froms, tos int
		for _, p := range pkgs {
			from, _ := rel(p.ImportPath)
			if matches(rule.to, from) {
				tos++
			}
			if !matches(rule.from, from) {
				continue
			}
			froms++
			for _, imp := range p.Imports {
				if to, ok := rel(imp); ok && matches(rule.to, to) {
					t.Errorf("%s -> %s: %s must not import %s: %s", from, to, rule.from, rule.to, rule.why)
				}
			}
		}
		if froms == 0 || tos == 0 {
			t.Errorf("rule %s -> %s matches %d importing and %d imported packages: it can never fail", rule.from, rule.to, froms, tos)
		}
	}
}

// TestOnlyImports fails on every import of the module by a package of a
// rule of only that the rule does not list.
func TestOnlyImports(t *testing.T) {
	pkgs := modulePackages(t)
	for _, rule := range only {
		froms := 0
		for _, p := range pkgs {
			from, _ := rel(p.ImportPath)
			if !matches(rule.from, from) {
				continue
			}
			froms++
			for _, imp := range p.Imports {
				if to, ok := rel(imp); ok && !matchesAny(rule.to, to) {
					t.Errorf("%s -> %s: %s imports only %s: %s", from, to, rule.from, strings.Join(rule.to, ", "), rule.why)
				}
			}
		}
		if froms == 0 {
			t.Errorf("rule for %s matches no package: it can never fail", rule.from)
		}
	}
}

func matchesAny(patterns []string, rel string) bool {
	for _, p := range patterns {
		if matches(p, rel) {
			return true
		}
	}
	return false
}
