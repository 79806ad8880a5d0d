package infer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/testkit/corpus"
)

// The documented intent written by hand (testdata/truth/README.md), read
// as units: one version's constraints on one path, or one union of one
// path.

// truthFiles is testdata/truth/files.yaml.
type truthFiles struct {
	Development []truthEntry `json:"development"`
	Heldout     []truthEntry `json:"heldout"`
}

type truthEntry struct {
	File  string   `json:"file"`
	Audit bool     `json:"audit"`
	Truth []string `json:"truth"`
}

// auditFile is the part of testdata/audit/audit.yaml read here.
type auditFile struct {
	CRDs   []auditEntry `json:"crds"`
	Unions []auditEntry `json:"unions"`
}

type auditEntry struct {
	File         string `json:"file"`
	Declarations string `json:"declarations"`
}

// scope says which kinds a truth speaks of: the audit declared the
// immutability of the crds it lists and the unions of those it lists
// under unions, and nothing else of them.
type scope struct{ constraints, unions bool }

// truthCase is one corpus file and its documented intent.
type truthCase struct {
	file  string
	crds  []*crd.CRD
	sets  []decl.Set
	scope scope
}

func readYAML(t *testing.T, path string, v interface{}) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func readSets(t *testing.T, path string) []decl.Set {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sets, err := decl.ParseFile(path, data)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return sets
}

// corpusByFile decodes the corpus once, by file relative to its folder.
func corpusByFile(t *testing.T) map[string][]*crd.CRD {
	t.Helper()
	dir := corpus.Dir(t)
	out := map[string][]*crd.CRD{}
	for _, c := range corpus.CRDs(t) {
		rel, _ := filepath.Rel(dir, c.File)
		m, err := crd.Read(c.Doc)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.ToSlash(rel)] = append(out[filepath.ToSlash(rel)], m)
	}
	return out
}

// truthCases reads the cases of one part. full: the supplement completes
// the audit's declarations, and every kind counts; otherwise only the
// audit's own declarations count, in its scope.
func truthCases(t *testing.T, part string, full bool) []truthCase {
	t.Helper()
	var files truthFiles
	readYAML(t, "testdata/truth/files.yaml", &files)
	var audit auditFile
	readYAML(t, "../../testdata/audit/audit.yaml", &audit)
	entries := files.Development
	if part == "heldout" {
		entries = files.Heldout
	}
	byFile := corpusByFile(t)
	var out []truthCase
	for _, e := range entries {
		c := truthCase{file: e.File, crds: byFile[e.File], scope: scope{true, true}}
		if len(c.crds) == 0 {
			t.Fatalf("testdata/truth/files.yaml: %s: no CRD in the corpus", e.File)
		}
		if e.Audit {
			c.scope = scope{}
			for _, a := range audit.CRDs {
				if a.File == e.File {
					c.sets = append(c.sets, readSets(t, filepath.Join("../../testdata/audit", a.Declarations))...)
					c.scope.constraints = true
				}
			}
			for _, a := range audit.Unions {
				if a.File == e.File {
					c.sets = append(c.sets, readSets(t, filepath.Join("../../testdata/audit", a.Declarations))...)
					c.scope.unions = true
				}
			}
		}
		if full || !e.Audit {
			c.scope = scope{true, true}
			for _, f := range e.Truth {
				c.sets = append(c.sets, readSets(t, filepath.Join("testdata/truth", f))...)
			}
		}
		out = append(out, c)
	}
	return out
}

// units are declarations as compared: constraints by version and path,
// unions by version, path and union.
type units struct {
	constraints map[string]decl.Constraints // version \x00 path
	unions      map[string]decl.Union       // version \x00 path \x00 union
	paths       map[string]decl.Path
}

func newUnits() *units {
	return &units{constraints: map[string]decl.Constraints{}, unions: map[string]decl.Union{}, paths: map[string]decl.Path{}}
}

func (u *units) addConstraints(version string, p decl.Path, c decl.Constraints) {
	if c == 0 {
		return
	}
	k := version + "\x00" + p.String()
	u.constraints[k] |= c
	u.paths[k] = p
}

func (u *units) addUnion(version string, p decl.Path, un decl.Union) {
	k := version + "\x00" + p.String()
	u.unions[k+"\x00"+decl.UnionsText([]decl.Union{un})] = un
	u.paths[k] = p
}

// truthUnits expands the sets of one CRD: every version they name (or
// every served one) that has the path.
func truthUnits(m *crd.CRD, sets []decl.Set) *units {
	u := newUnits()
	for _, s := range sets {
		if s.CRD != m.Name {
			continue
		}
		for _, v := range m.Versions {
			if !v.Served || !m.First(v) || !named(s.Versions, v.Name) {
				continue
			}
			for _, f := range s.Fields {
				if _, ok := v.NodeAt(f.Path); ok {
					addField(u, v.Name, f)
				}
			}
		}
	}
	return u
}

func named(vs []decl.Named, name string) bool {
	if len(vs) == 0 {
		return true
	}
	for _, v := range vs {
		if v.Name == name {
			return true
		}
	}
	return false
}

// addField adds one field's declarations as constraints (the KEP values
// as docs/semantics.md 9.2 spells them) and unions.
func addField(u *units, version string, f decl.Field) {
	for ext, value := range f.Values {
		switch ext {
		case decl.ExtMutability, decl.ExtKeyMutability:
			self, coll, _ := decl.KEP(ext, value, f.Path.IsEntry())
			u.addConstraints(version, f.Path, self)
			if coll != 0 {
				u.addConstraints(version, f.Path[:len(f.Path)-1], coll)
			}
		case decl.ExtUpdate:
			c, _ := decl.ParseConstraints(value)
			u.addConstraints(version, f.Path, c)
		case decl.ExtUnions:
			us, _ := decl.ParseUnionsText(value)
			for _, un := range us {
				u.addUnion(version, f.Path, un)
			}
		}
	}
}

// proposalUnits are the sure proposals of a result.
func proposalUnits(r *Result) *units {
	u := newUnits()
	for _, p := range r.Proposals {
		if p.Doubt != "" {
			continue
		}
		for _, v := range p.Versions {
			addField(u, v, decl.Field{Path: p.Path, Values: p.Values})
		}
	}
	return u
}

func versionOf(key string) string { return key[:strings.IndexByte(key, 0)] }
