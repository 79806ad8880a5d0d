package verify_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
	"github.com/mut2cel/mut2cel/verify/declread"
)

// corpusPairs is the number of pairs per version of the corpus sweep:
// enough for the generator's schedule to aim at each of a few
// declarations many times over. A copy without rules is found out in far
// fewer.
const (
	corpusPairs         = 600
	corpusRulelessPairs = 150
)

// corpusUnvouched bounds the versions of the sweep's translations that
// verify refuses to vouch for without finding a disagreement: too many
// pairs set aside, or a constraint no judged pair breaks. Each is a rule
// on create that the generator does not satisfy often enough (a string
// that must parse as a duration or URL, a namespace that must be the
// object's own, "exactly one of" among declared fields); they are
// listed by go test -v. Measured: 13 of 214 versions.
const corpusUnvouched = 20

// TestCorpusTeeth declares a few fields of every CRD of the corpus, as a
// user would, and verifies twice: its translation must agree with the
// declarations, and a copy of the translation with every rule removed
// must fail, with the declarations' own violations among the causes.
// Over the whole corpus, at most MaxSetAside of the pairs may be set
// aside, and at most corpusUnvouched versions may fail for having
// checked too little.
func TestCorpusTeeth(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpus sweep verifies every CRD of ../shared/corpus")
	}
	crds := corpus.CRDs(t)
	dir := corpus.Dir(t)
	judged, setAside, swept, versions := 0, 0, 0, 0
	var unvouched []string
	defer tallyValidity().checkSince(t, "corpus sweep")
	for _, c := range crds {
		name := strings.TrimPrefix(c.File, dir+"/") + ":" + c.Name
		t.Run(name, func(t *testing.T) {
			declared, translated, fields := declareSome(t, c.Doc)
			if len(fields) == 0 {
				t.Skipf("no field of %s can be declared by the sweep's choice", c.Name)
			}
			rep, err := verify.Verify(declared, translated, verify.Options{Pairs: corpusPairs, Seed: 1, Workers: 2})
			if err != nil {
				t.Fatalf("declaring %s: %v", strings.Join(fields, ", "), err)
			}
			swept++
			for _, v := range rep.Versions {
				versions++
				judged += v.Judged()
				setAside += v.Invalid
				if v.Disagreements > 0 {
					t.Errorf("%s %s, declaring %s: %d disagreements with the translation: %s",
						c.Name, v.Version, strings.Join(fields, ", "), v.Disagreements, v.Groups[0].Key())
				}
				if v.Failed() {
					unvouched = append(unvouched, fmt.Sprintf("%s %s, declaring %s: untested %v, unexercised %v, %d of %d set aside %s",
						c.Name, v.Version, strings.Join(fields, ", "), v.Untested(), v.Unexercised(), v.Invalid, v.Pairs, firstRefusal(v)))
				}
			}
			ruleless := withoutRules(translated)
			rep, err = verify.Verify(declared, ruleless, verify.Options{Pairs: corpusRulelessPairs, Seed: 1, Workers: 2, Counterexamples: -1})
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Failed() || !missesDeclarations(rep) {
				t.Errorf("%s, declaring %s: verify passes a copy with no rules, or finds no declaration missed", c.Name, strings.Join(fields, ", "))
			}
		})
	}
	share := float64(setAside) / float64(max(1, judged+setAside))
	t.Logf("%d CRDs swept, %d versions; %d pairs judged, %d set aside (%.2f%%); verify vouches for all but %d versions:\n%s",
		swept, versions, judged, setAside, 100*share, len(unvouched), strings.Join(unvouched, "\n"))
	if share > verify.MaxSetAside {
		t.Errorf("%.2f%% of the sweep's pairs set aside, more than %.0f%%", 100*share, 100*verify.MaxSetAside)
	}
	if len(unvouched) > corpusUnvouched {
		t.Errorf("verify vouches for none of %d versions, more than %d:\n%s", len(unvouched), corpusUnvouched, strings.Join(unvouched, "\n"))
	}
}

func firstRefusal(v *verify.VersionReport) string {
	if len(v.SetAside) == 0 {
		return ""
	}
	return "(first: " + v.SetAside[0].Message + ")"
}

// missesDeclarations reports whether some cause of some version is a
// declaration the rules under test let through.
func missesDeclarations(rep *verify.Report) bool {
	for _, v := range rep.Versions {
		for _, c := range v.Causes {
			if c.Cause.Kind == verify.CauseMissed && len(c.Cause.Violated) > 0 {
				return true
			}
		}
	}
	return false
}

// withoutRules is a copy of a decoded CRD with every
// x-kubernetes-validations list removed.
func withoutRules(doc map[string]interface{}) map[string]interface{} {
	var strip func(v interface{}) interface{}
	strip = func(v interface{}) interface{} {
		switch x := v.(type) {
		case map[string]interface{}:
			out := make(map[string]interface{}, len(x))
			for k, e := range x {
				if k != "x-kubernetes-validations" {
					out[k] = strip(e)
				}
			}
			return out
		case []interface{}:
			out := make([]interface{}, len(x))
			for i, e := range x {
				out[i] = strip(e)
			}
			return out
		}
		return v
	}
	return strip(doc).(map[string]interface{})
}

// sweepValues are the declarations the sweep hands out in turn.
var sweepValues = []string{
	"{x-kubernetes-mutability: Immutable}",
	"{x-kubernetes-mutability: AddOnly}",
	"{x-kubernetes-update: [NoModify]}",
	"{x-kubernetes-mutability: RemoveOnly}",
	"{x-kubernetes-update: [NoSet, NoUnset]}",
}

// declareSome declares up to four scalar fields below spec and the keys
// of one collection, spread over the schema, on every served version,
// and translates. Candidates the translator refuses (formats CEL reads
// otherwise, names it cannot escape, a cost no bound brings down) are
// dropped one at a time. It returns the declared CRD, its translation
// and the declared fields, none when nothing could be declared.
func declareSome(t *testing.T, doc map[string]interface{}) (declared, translated map[string]interface{}, fields []string) {
	t.Helper()
	name, _ := doc["metadata"].(map[string]interface{})["name"].(string)
	scalars, collections := candidates(firstServedSchema(doc))
	picked := spread(scalars, 4)
	if len(collections) > 0 {
		picked = append(picked, spread(collections, 1)...)
	}
	for len(picked) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "apiVersion: mut2cel.io/v1alpha1\nkind: Declarations\ncrd: %s\nfields:\n", name)
		fields = fields[:0]
		for i, p := range picked {
			value := sweepValues[i%len(sweepValues)]
			if p.collection {
				value = "{x-kubernetes-key-mutability: AddOnly}"
			}
			fmt.Fprintf(&b, "  %q: %s\n", p.path, value)
			fields = append(fields, p.path+" "+value)
		}
		sets, err := decl.ParseFile("sweep.yaml", []byte(b.String()))
		if err != nil {
			t.Fatalf("%s\n%v", b.String(), err)
		}
		opts := translate.Options{Declarations: sets, AllServedVersions: true, KubeVersion: translate.KubeVersion{Major: 1, Minor: 33}}
		res, err := translate.Translate(doc, opts)
		if err != nil {
			// Drop the candidate the error names, or the last one.
			drop := len(picked) - 1
			for i, p := range picked {
				if strings.Contains(err.Error(), p.path) {
					drop = i
					break
				}
			}
			picked = append(picked[:drop], picked[drop+1:]...)
			continue
		}
		declared, err = declread.CRD(doc, opts.Declarations, opts.AllServedVersions)
		if err != nil {
			t.Fatal(err)
		}
		return declared, res.Translated, fields
	}
	return nil, nil, nil
}

type candidate struct {
	path       string
	collection bool
}

// spread takes n candidates spread evenly over the sorted list.
func spread(cs []candidate, n int) []candidate {
	sort.Slice(cs, func(i, j int) bool { return cs[i].path < cs[j].path })
	if len(cs) <= n {
		return cs
	}
	var out []candidate
	for i := 0; i < n; i++ {
		out = append(out, cs[i*len(cs)/n])
	}
	return out
}

func firstServedSchema(doc map[string]interface{}) map[string]interface{} {
	spec, _ := doc["spec"].(map[string]interface{})
	versions, _ := spec["versions"].([]interface{})
	for _, v := range versions {
		m, _ := v.(map[string]interface{})
		if m["served"] != true {
			continue
		}
		s, _ := m["schema"].(map[string]interface{})
		raw, _ := s["openAPIV3Schema"].(map[string]interface{})
		return raw
	}
	return nil
}

// candidates lists the scalar properties and the collections below spec,
// at most four levels down, outside preserved unknown fields, embedded
// resources and junctors, whose names need no escaping.
func candidates(root map[string]interface{}) (scalars, collections []candidate) {
	props, _ := root["properties"].(map[string]interface{})
	spec, _ := props["spec"].(map[string]interface{})
	var walk func(s map[string]interface{}, path string, depth int)
	walk = func(s map[string]interface{}, path string, depth int) {
		if depth > 4 || s["x-kubernetes-preserve-unknown-fields"] == true || s["x-kubernetes-embedded-resource"] == true {
			return
		}
		switch s["type"] {
		case "string", "integer", "boolean":
			if f, _ := s["format"].(string); f == "" || f == "int32" || f == "int64" {
				scalars = append(scalars, candidate{path: path})
			}
			return
		case "array":
			collections = append(collections, candidate{path, true})
			if items, ok := s["items"].(map[string]interface{}); ok {
				walk(items, path+"[*]", depth+1)
			}
			return
		}
		if ap, ok := s["additionalProperties"].(map[string]interface{}); ok {
			collections = append(collections, candidate{path, true})
			walk(ap, path+"[*]", depth+1)
			return
		}
		ps, _ := s["properties"].(map[string]interface{})
		for name, p := range ps {
			if !plainName(name) {
				continue
			}
			if m, ok := p.(map[string]interface{}); ok {
				walk(m, path+"."+name, depth+1)
			}
		}
	}
	if spec != nil {
		walk(spec, ".spec", 0)
	}
	return scalars, collections
}

func plainName(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}
