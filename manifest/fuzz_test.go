package manifest

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/mut2cel/mut2cel/edit"
)

// FuzzParse checks that Parse never panics and that, when it succeeds,
// Bytes returns the input unchanged, and every value read from a node
// tree alone is the one YAML 1.1 reads (nodeValue). Crashers land in
// testdata/fuzz/.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "---", "a: 1\n---\nb: 2", "a: 1\r\n...\r\n", "# c\n--- |\n x\n", "{\"a\": [1]}",
		"%YAML 1.1\n---\na: [1, {b: c}]\n", "a: &x 1\nb: *x\n", "- a\n- b: c\n  d: e\n",
	} {
		f.Add("f.yaml", []byte(s))
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.*"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(filepath.Base(p), data)
		}
	}
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		file, err := Parse(name, data)
		if err != nil {
			return
		}
		if got := file.Bytes(); string(got) != string(data) {
			t.Errorf("Parse(%q).Bytes() = %q, want the input", data, got)
		}
		for _, d := range file.Docs {
			d.Line([]interface{}{"spec", "versions", 0})
			if v, ok := nodeValue(d.root); ok {
				want, err := decodeYAML(d.data)
				if err != nil || !reflect.DeepEqual(v, want) {
					t.Errorf("the node tree of %q reads %v, YAML 1.1 %v (%v)", d.data, v, want, err)
				}
			}
		}
	})
}

// FuzzApply adds a rule, and maybe removes a key, at one mapping of each
// document. Apply must not panic, and when it succeeds the whole file must
// parse again with the edited document decoding to edit.Apply's value.
func FuzzApply(f *testing.F) {
	f.Add([]byte("a:\n  b: 1\n  c:\n  - d\n"), "self == oldSelf", uint8(1), true)
	f.Add([]byte("---\nx:\n    y: |\n      text\n    z: [1]\n...\n"), "a\nb", uint8(0), false)
	f.Add([]byte("l:\n- m: 1\n  x-kubernetes-validations:\n  - rule: r\n"), "'on'", uint8(1), true)
	f.Add([]byte("a:\n  x-kubernetes-validations:\n  - rule: r # c\n    message: m\n  - rule: s\n"), "on", uint8(0xc1), false)
	f.Fuzz(func(t *testing.T, data []byte, rule string, pick uint8, remove bool) {
		file, err := Parse("f.yaml", data)
		if err != nil {
			return
		}
		for i, d := range file.Docs {
			e, ok := fuzzEdit(d.Value(), rule, pick, remove)
			if !ok {
				continue
			}
			want, err := edit.Apply(d.Value(), []edit.Edit{e})
			if err := d.Apply([]edit.Edit{e}); err != nil || want == nil {
				continue
			}
			again, err := Parse("f.yaml", file.Bytes())
			if err != nil {
				t.Fatalf("edited file does not parse: %v\n%s", err, file.Bytes())
			}
			if !reflect.DeepEqual(again.Docs[i].Value(), want) {
				t.Fatalf("edited document %d decodes to %v, want %v", i, again.Docs[i].Value(), want)
			}
		}
	})
}

// fuzzEdit picks a mapping of doc (in sorted key order) and builds an edit
// for it.
func fuzzEdit(doc map[string]interface{}, rule string, pick uint8, remove bool) (edit.Edit, bool) {
	var paths [][]interface{}
	var maps []map[string]interface{}
	walkMaps(doc, nil, func(p []interface{}, m map[string]interface{}) {
		paths, maps = append(paths, p), append(maps, m)
	})
	if len(paths) == 0 {
		return edit.Edit{}, false
	}
	i := int(pick) % len(paths)
	e := edit.Edit{Path: paths[i], AddRules: []edit.Rule{{Rule: rule, Message: "m"}}}
	if keys := sortedKeys(maps[i]); remove && len(keys) > 0 {
		e.Remove = keys[:1]
	}
	if pick&0x80 != 0 {
		e.Set = []edit.Setting{{Key: rule, Value: rule}, {Key: "n", Value: int64(pick)}}
	}
	if list, _ := maps[i][edit.ValidationsKey].([]interface{}); pick&0x40 != 0 && len(list) > 0 && !contains(e.Remove, edit.ValidationsKey) {
		if r, ok := edit.RuleOf(list[0]); ok {
			e.RemoveRules = []edit.Rule{r}
		}
	}
	return e, true
}

func walkMaps(v interface{}, path []interface{}, f func([]interface{}, map[string]interface{})) {
	switch t := v.(type) {
	case map[string]interface{}:
		f(path, t)
		for _, k := range sortedKeys(t) {
			walkMaps(t[k], append(path[:len(path):len(path)], k), f)
		}
	case []interface{}:
		for i, x := range t {
			walkMaps(x, append(path[:len(path):len(path)], i), f)
		}
	}
}

func sortedKeys(m map[string]interface{}) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
