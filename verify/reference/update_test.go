package reference

import (
	"strings"
	"testing"
)

// This file states, independently of the translator, what the checker does
// with x-kubernetes-update (semantics.md 9).

// underDecl is one declaration of a schema template and the violations,
// as brief renders them, that each update of the table produces under it.
type underDecl struct {
	update string   // replaces $U in the template, such as "[NoModify]"
	want   []string // one per update, in order
	items  string   // replaces $I, where a template declares twice
}

// runUnderDecls checks the same updates under several declarations.
func runUnderDecls(t *testing.T, template string, updates []updateCase, decls []underDecl) {
	t.Helper()
	for _, d := range decls {
		if len(d.want) != len(updates) {
			t.Fatalf("%s: %d verdicts for %d updates", d.update, len(d.want), len(updates))
		}
		cases := make([]updateCase, len(updates))
		for i, u := range updates {
			cases[i] = updateCase{name: u.name, old: u.old, new: u.new, want: d.want[i]}
		}
		name := d.update
		if d.items != "" {
			name += " items " + d.items
		}
		t.Run(name, func(t *testing.T) {
			runUpdates(t, strings.NewReplacer("$U", d.update, "$I", d.items).Replace(template), cases)
		})
	}
}

func TestUpdateScalarProperty(t *testing.T) {
	schema := `
type: object
properties:
  foo: {type: string, nullable: true, x-kubernetes-update: $U}`
	value := "foo value " + nodePath("foo")
	presence := "foo presence " + nodePath("foo")
	updates := []updateCase{
		{name: "set", old: `{}`, new: `{foo: a}`},
		{name: "unset", old: `{foo: a}`, new: `{}`},
		{name: "null is unset", old: `{foo: a}`, new: `{foo: null}`},
		{name: "change", old: `{foo: a}`, new: `{foo: b}`},
		{name: "empty string is a value", old: `{foo: a}`, new: `{foo: ""}`},
		{name: "same", old: `{foo: a}`, new: `{foo: a}`},
		{name: "absent on both sides", old: `{}`, new: `{}`},
	}
	runUnderDecls(t, schema, updates, []underDecl{
		{update: "[NoModify]", want: []string{"", "", "", value, value, "", ""}},
		{update: "[NoSet]", want: []string{presence, "", "", "", "", "", ""}},
		{update: "[NoUnset]", want: []string{"", presence, presence, "", "", "", ""}},
		{update: "[NoSet, NoUnset]", want: []string{presence, presence, presence, "", "", "", ""}},
		{update: "[NoUnset, NoModify]", want: []string{"", presence, presence, value, value, "", ""}},
		{update: "[NoSet, NoModify]", want: []string{presence, "", "", value, value, "", ""}},
		{update: "[NoSet, NoUnset, NoModify]", want: []string{presence, presence, presence, value, value, "", ""}},
	})
}

// deepUpdate is spec.a.b.foo with every parent optional, declared $U.
const deepUpdate = `
type: object
properties:
  spec:
    type: object
    properties:
      a:
        type: object
        properties:
          b:
            type: object
            properties:
              foo: {type: string, x-kubernetes-update: $U}`

// An optional parent counts (semantics.md 9.3): removing it unsets foo.
func TestUpdateUnderOptionalParent(t *testing.T) {
	foo := nodePath("spec", "a", "b", "foo")
	presence := "spec.a.b.foo presence " + foo
	value := "spec.a.b.foo value " + foo
	updates := []updateCase{
		{name: "remove b", old: `{spec: {a: {b: {foo: x}}}}`, new: `{spec: {a: {}}}`},
		{name: "remove spec", old: `{spec: {a: {b: {foo: x}}}}`, new: `{}`},
		{name: "set spec", old: `{}`, new: `{spec: {a: {b: {foo: w}}}}`},
		{name: "parents without foo", old: `{spec: {a: {b: {}}}}`, new: `{}`},
		{name: "change", old: `{spec: {a: {b: {foo: x}}}}`, new: `{spec: {a: {b: {foo: w}}}}`},
	}
	runUnderDecls(t, deepUpdate, updates, []underDecl{
		{update: "[NoModify]", want: []string{"", "", "", "", value}},
		{update: "[NoSet]", want: []string{"", "", presence, "", ""}},
		{update: "[NoUnset]", want: []string{presence, presence, "", "", ""}},
	})
}

func TestUpdateObjectProperty(t *testing.T) {
	schema := `
type: object
properties:
  o:
    type: object
    x-kubernetes-update: $U
    properties:
      x: {type: string}
      z: {type: string, nullable: true}`
	value := "o value " + nodePath("o")
	presence := "o presence " + nodePath("o")
	updates := []updateCase{
		{name: "set empty", old: `{}`, new: `{o: {}}`},
		{name: "unset empty", old: `{o: {}}`, new: `{}`},
		{name: "change a property", old: `{o: {x: a}}`, new: `{o: {x: b}}`},
		{name: "add a property", old: `{o: {x: a}}`, new: `{o: {x: a, z: b}}`},
		{name: "remove the last property", old: `{o: {x: a}}`, new: `{o: {}}`},
		{name: "a null property is absent", old: `{o: {x: a}}`, new: `{o: {x: a, z: null}}`},
	}
	runUnderDecls(t, schema, updates, []underDecl{
		{update: "[NoModify]", want: []string{"", "", value, value, value, ""}},
		{update: "[NoSet]", want: []string{presence, "", "", "", "", ""}},
		{update: "[NoUnset]", want: []string{"", presence, "", "", "", ""}},
		{update: "[NoSet, NoUnset]", want: []string{presence, presence, "", "", "", ""}},
	})
}

// On a list itself NoSet, NoUnset and NoModify speak of the list as one
// value; absent and [] differ, [] is a value (semantics.md 9.3).
func TestUpdateListProperty(t *testing.T) {
	schema := `
type: object
properties:
  l:
    type: array
    x-kubernetes-update: $U
    items: {type: string}`
	value := "l value " + nodePath("l")
	presence := "l presence " + nodePath("l")
	keys := "l keys " + nodePath("l")
	updates := []updateCase{
		{name: "absent to empty", old: `{}`, new: `{l: []}`},
		{name: "empty to absent", old: `{l: []}`, new: `{}`},
		{name: "append", old: `{l: [a]}`, new: `{l: [a, b]}`},
		{name: "truncate", old: `{l: [a, b]}`, new: `{l: [a]}`},
		{name: "empty", old: `{l: [a]}`, new: `{l: []}`},
		{name: "change an item", old: `{l: [a]}`, new: `{l: [b]}`},
		{name: "set with items", old: `{}`, new: `{l: [a]}`},
		{name: "unset with items", old: `{l: [a]}`, new: `{}`},
	}
	runUnderDecls(t, schema, updates, []underDecl{
		{update: "[NoModify]", want: []string{"", "", value, value, value, value, "", ""}},
		{update: "[NoSet]", want: []string{presence, "", "", "", "", "", presence, ""}},
		{update: "[NoUnset]", want: []string{"", presence, "", "", "", "", "", presence}},
		{update: "[NoAddItem]", want: []string{"", "", keys, "", "", "", keys, ""}},
		{update: "[NoRemoveItem]", want: []string{"", "", "", keys, keys, "", "", keys}},
		{update: "[NoAddItem, NoRemoveItem]", want: []string{"", "", keys, keys, keys, "", keys, keys}},
		{update: "[NoSet, NoUnset]", want: []string{presence, presence, "", "", "", "", presence, presence}},
		{update: "[NoUnset, NoModify]", want: []string{"", presence, value, value, value, value, "", presence}},
	})
}

// NoModify on the items of an atomic list is per index (semantics.md 3.3).
func TestUpdateAtomicListItems(t *testing.T) {
	schema := `
type: object
properties:
  l:
    type: array
    items: {type: string, x-kubernetes-update: $U}`
	items := nodePath("l", "items")
	updates := []updateCase{
		{name: "change one", old: `{l: [a, b]}`, new: `{l: [a, c]}`},
		{name: "reorder", old: `{l: [a, b]}`, new: `{l: [b, a]}`},
		{name: "append", old: `{l: [a]}`, new: `{l: [a, b]}`},
		{name: "truncate", old: `{l: [a, b]}`, new: `{l: [a]}`},
		{name: "unset", old: `{l: [a, b]}`, new: `{}`},
	}
	runUnderDecls(t, schema, updates, []underDecl{
		{update: "[NoModify]", want: []string{
			"l[1] value " + items,
			lines("l[0] value "+items, "l[1] value "+items),
			"", "", "",
		}},
	})
}

// listMapSchema is a list-map keyed by name; $U declares on the list,
// $I on its items.
const listMapSchema = `
type: object
properties:
  ports:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name]
    x-kubernetes-update: $U
    items:
      type: object
      x-kubernetes-update: $I
      properties:
        name: {type: string}
        port: {type: integer}`

// Keys of a list-map are key tuples: the list may be reordered and items
// changed, unless the items' own NoModify says otherwise; that one is
// judged per key, not per index.
func TestUpdateListMap(t *testing.T) {
	keys := "ports keys " + nodePath("ports")
	items := nodePath("ports", "items")
	updates := []updateCase{
		{name: "add", old: `{ports: [{name: a, port: 1}]}`, new: `{ports: [{name: a, port: 1}, {name: b, port: 2}]}`},
		{name: "remove", old: `{ports: [{name: a, port: 1}, {name: b, port: 2}]}`, new: `{ports: [{name: a, port: 1}]}`},
		{name: "reorder", old: `{ports: [{name: a, port: 1}, {name: b, port: 2}]}`, new: `{ports: [{name: b, port: 2}, {name: a, port: 1}]}`},
		{name: "change a port", old: `{ports: [{name: a, port: 1}]}`, new: `{ports: [{name: a, port: 2}]}`},
		{name: "reorder and change", old: `{ports: [{name: a, port: 1}, {name: b, port: 2}]}`, new: `{ports: [{name: b, port: 3}, {name: a, port: 1}]}`},
		{name: "rename", old: `{ports: [{name: a, port: 1}]}`, new: `{ports: [{name: b, port: 1}]}`},
		{name: "unset", old: `{ports: [{name: a, port: 1}]}`, new: `{}`},
	}
	runUnderDecls(t, listMapSchema, updates, []underDecl{
		{update: "[NoAddItem]", items: "[NoModify]", want: []string{keys, "", "", "ports[0] value " + items, "ports[0] value " + items, keys, ""}},
		{update: "[NoRemoveItem]", items: "[NoModify]", want: []string{"", keys, "", "ports[0] value " + items, "ports[0] value " + items, keys, keys}},
		// Each constraint is a rule of its own: a rename breaks both.
		{update: "[NoAddItem, NoRemoveItem]", items: "[NoModify]", want: []string{keys, keys, "", "ports[0] value " + items, "ports[0] value " + items, lines(keys, keys), keys}},
		// NoModify on the list itself compares it in order (semantics.md 2.3).
		{update: "[NoModify]", items: "[NoModify]", want: []string{
			"ports value " + nodePath("ports"), "ports value " + nodePath("ports"), "ports value " + nodePath("ports"),
			lines("ports value "+nodePath("ports"), "ports[0] value "+items),
			lines("ports value "+nodePath("ports"), "ports[0] value "+items),
			"ports value " + nodePath("ports"), "",
		}},
	})
}

// The key of a set item is its value: the set may be reordered unless
// NoModify is on the set itself, and a declaration on its items
// constrains nothing (semantics.md 3.3).
func TestUpdateSet(t *testing.T) {
	schema := `
type: object
properties:
  s:
    type: array
    x-kubernetes-list-type: set
    x-kubernetes-update: $U
    items: {type: string, x-kubernetes-update: $I}`
	keys := "s keys " + nodePath("s")
	value := "s value " + nodePath("s")
	updates := []updateCase{
		{name: "add", old: `{s: [a]}`, new: `{s: [a, b]}`},
		{name: "remove", old: `{s: [a, b]}`, new: `{s: [a]}`},
		{name: "reorder", old: `{s: [a, b]}`, new: `{s: [b, a]}`},
		{name: "replace", old: `{s: [a]}`, new: `{s: [b]}`},
	}
	runUnderDecls(t, schema, updates, []underDecl{
		{update: "[NoAddItem]", items: "[NoModify]", want: []string{keys, "", "", keys}},
		{update: "[NoRemoveItem]", items: "[NoModify]", want: []string{"", keys, "", keys}},
		{update: "[NoModify]", items: "[NoModify]", want: []string{value, value, value, value}},
		{update: "[NoSet]", items: "[NoModify]", want: []string{"", "", "", ""}},
	})
}

func TestUpdateMap(t *testing.T) {
	schema := `
type: object
properties:
  m:
    type: object
    x-kubernetes-update: $U
    additionalProperties: {type: string, nullable: true, x-kubernetes-update: $I}`
	keys := "m keys " + nodePath("m")
	value := "m value " + nodePath("m")
	presence := "m presence " + nodePath("m")
	values := nodePath("m", "additionalProperties")
	updates := []updateCase{
		{name: "add", old: `{m: {a: x}}`, new: `{m: {a: x, b: y}}`},
		{name: "remove", old: `{m: {a: x, b: y}}`, new: `{m: {a: x}}`},
		{name: "change a value", old: `{m: {a: x}}`, new: `{m: {a: y}}`},
		{name: "null value is a value", old: `{m: {a: x}}`, new: `{m: {a: null}}`},
		{name: "set", old: `{}`, new: `{m: {a: x}}`},
		{name: "unset", old: `{m: {a: x}}`, new: `{}`},
		{name: "empty to absent", old: `{m: {}}`, new: `{}`},
	}
	runUnderDecls(t, schema, updates, []underDecl{
		{update: "[NoAddItem]", items: "[NoModify]", want: []string{
			keys, "", "m[a] value " + values, "m[a] value " + values, keys, "", ""}},
		{update: "[NoRemoveItem]", items: "[NoModify]", want: []string{
			"", keys, "m[a] value " + values, "m[a] value " + values, "", keys, ""}},
		{update: "[NoUnset, NoModify]", items: "[NoModify]", want: []string{
			value,
			value,
			lines("m value "+nodePath("m"), "m[a] value "+values),
			lines("m value "+nodePath("m"), "m[a] value "+values),
			"", presence, presence}},
	})
}

// A new entry is created fresh: nothing inside it is constrained, while
// the same field of an entry that exists before and after is (semantics.md
// 2.2, 9.3).
func TestUpdateInsideEntries(t *testing.T) {
	schema := `
type: object
properties:
  ports:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name]
    items:
      type: object
      properties:
        name: {type: string}
        port: {type: integer, x-kubernetes-update: $U}
  m:
    type: object
    additionalProperties:
      type: object
      properties:
        x: {type: string, x-kubernetes-update: $U}`
	port := nodePath("ports", "items", "port")
	x := nodePath("m", "additionalProperties", "x")
	updates := []updateCase{
		{name: "new item with port", old: `{ports: [{name: a}]}`, new: `{ports: [{name: a}, {name: b, port: 1}]}`},
		{name: "new list with port", old: `{}`, new: `{ports: [{name: b, port: 1}]}`},
		{name: "old item gains port", old: `{ports: [{name: a}]}`, new: `{ports: [{name: a, port: 1}]}`},
		{name: "old item loses port", old: `{ports: [{name: a, port: 1}]}`, new: `{ports: [{name: a}]}`},
		{name: "item removed", old: `{ports: [{name: a, port: 1}]}`, new: `{ports: []}`},
		{name: "old item changes port", old: `{ports: [{name: a, port: 1}]}`, new: `{ports: [{name: a, port: 2}]}`},
		{name: "new entry with x", old: `{m: {}}`, new: `{m: {k: {x: a}}}`},
		{name: "old entry loses x", old: `{m: {k: {x: a}}}`, new: `{m: {k: {}}}`},
		{name: "entry removed", old: `{m: {k: {x: a}}}`, new: `{m: {}}`},
	}
	runUnderDecls(t, schema, updates, []underDecl{
		{update: "[NoSet, NoUnset, NoModify]", want: []string{
			"", "", "ports[0].port presence " + port, "ports[0].port presence " + port, "", "ports[0].port value " + port,
			"", "m[k].x presence " + x, ""}},
		{update: "[NoModify]", want: []string{"", "", "", "", "", "ports[0].port value " + port, "", "", ""}},
	})
}

// The three intents that the KEP values cannot say (semantics.md 9).
func TestUpdateIntents(t *testing.T) {
	t.Run("kueue Workload status.clusterName: cleared and set again, not changed while set", func(t *testing.T) {
		runUpdates(t, `
type: object
properties:
  status:
    type: object
    properties:
      clusterName: {type: string, x-kubernetes-update: [NoModify]}`, []updateCase{
			{"set", `{status: {}}`, `{status: {clusterName: a}}`, ""},
			{"clear", `{status: {clusterName: a}}`, `{status: {}}`, ""},
			{"clear with status", `{status: {clusterName: a}}`, `{}`, ""},
			{"set again to another", `{status: {}}`, `{status: {clusterName: b}}`, ""},
			{"change while set", `{status: {clusterName: a}}`, `{status: {clusterName: b}}`,
				"status.clusterName value " + nodePath("status", "clusterName")},
		})
	})
	t.Run("Karpenter NodePool spec.replicas: presence fixed, value free", func(t *testing.T) {
		replicas := "spec.replicas presence " + nodePath("spec", "replicas")
		runUpdates(t, `
type: object
properties:
  spec:
    type: object
    properties:
      replicas: {type: integer, x-kubernetes-update: [NoSet, NoUnset]}`, []updateCase{
			{"scale", `{spec: {replicas: 1}}`, `{spec: {replicas: 5}}`, ""},
			{"scale to zero", `{spec: {replicas: 1}}`, `{spec: {replicas: 0}}`, ""},
			{"unset", `{spec: {replicas: 1}}`, `{spec: {}}`, replicas},
			{"unset the parent", `{spec: {replicas: 1}}`, `{}`, replicas},
			{"set", `{spec: {}}`, `{spec: {replicas: 0}}`, replicas},
			{"stay unset", `{spec: {}}`, `{}`, ""},
		})
	})
	t.Run("top-level map parameters: set once", func(t *testing.T) {
		params := nodePath("parameters")
		runUpdates(t, `
type: object
properties:
  parameters:
    type: object
    x-kubernetes-update: [NoUnset, NoModify]
    additionalProperties: {type: string}`, []updateCase{
			{"set", `{}`, `{parameters: {a: x}}`, ""},
			{"set empty", `{}`, `{parameters: {}}`, ""},
			{"add to empty", `{parameters: {}}`, `{parameters: {a: x}}`, "parameters value " + params},
			{"add", `{parameters: {a: x}}`, `{parameters: {a: x, b: y}}`, "parameters value " + params},
			{"change", `{parameters: {a: x}}`, `{parameters: {a: y}}`, "parameters value " + params},
			{"remove a key", `{parameters: {a: x, b: y}}`, `{parameters: {a: x}}`, "parameters value " + params},
			{"unset", `{parameters: {a: x}}`, `{}`, "parameters presence " + params},
			{"keep", `{parameters: {a: x}}`, `{parameters: {a: x}}`, ""},
		})
	})
}

// kepAsUpdate is one row of the table in semantics.md 9.2: a schema in
// which $C stands for the declaration line of a collection (or of a
// property) and $I for that of its items, written once with a KEP value
// and once with the constraints it equals.
type kepAsUpdate struct {
	name             string
	kepC, kepI       string
	updateC, updateI string
	template         string
	updates          []updateCase
}

const (
	kepPropertyTemplate = `
type: object
properties:
  spec:
    type: object
    properties:
      foo:
        type: string
        nullable: true
        $C`
	kepListTemplate = `
type: object
properties:
  l:
    type: array
    $C
    items:
      type: string
      $I`
	kepListMapTemplate = `
type: object
properties:
  l:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name]
    $C
    items:
      type: object
      $I
      properties:
        name: {type: string}
        port: {type: integer}`
	kepMapTemplate = `
type: object
properties:
  l:
    type: object
    $C
    additionalProperties:
      type: string
      $I`
)

var (
	propertyUpdates = []updateCase{
		{name: "set", old: `{spec: {}}`, new: `{spec: {foo: a}}`},
		{name: "unset", old: `{spec: {foo: a}}`, new: `{spec: {}}`},
		{name: "null", old: `{spec: {foo: a}}`, new: `{spec: {foo: null}}`},
		{name: "change", old: `{spec: {foo: a}}`, new: `{spec: {foo: b}}`},
		{name: "same", old: `{spec: {foo: a}}`, new: `{spec: {foo: a}}`},
		{name: "unset the parent", old: `{spec: {foo: a}}`, new: `{}`},
		{name: "set with the parent", old: `{}`, new: `{spec: {foo: b}}`},
	}
	listUpdates = []updateCase{
		{name: "append", old: `{l: [a]}`, new: `{l: [a, b]}`},
		{name: "truncate", old: `{l: [a, b]}`, new: `{l: [a]}`},
		{name: "change", old: `{l: [a, b]}`, new: `{l: [a, c]}`},
		{name: "reorder", old: `{l: [a, b]}`, new: `{l: [b, a]}`},
		{name: "set", old: `{}`, new: `{l: [a]}`},
		{name: "unset", old: `{l: [a]}`, new: `{}`},
		{name: "absent to empty", old: `{}`, new: `{l: []}`},
		{name: "same", old: `{l: [a, b]}`, new: `{l: [a, b]}`},
	}
	listMapUpdates = []updateCase{
		{name: "add", old: `{l: [{name: a}]}`, new: `{l: [{name: a}, {name: b}]}`},
		{name: "remove", old: `{l: [{name: a}, {name: b}]}`, new: `{l: [{name: b}]}`},
		{name: "change", old: `{l: [{name: a, port: 1}]}`, new: `{l: [{name: a, port: 2}]}`},
		{name: "reorder", old: `{l: [{name: a}, {name: b}]}`, new: `{l: [{name: b}, {name: a}]}`},
		{name: "rename", old: `{l: [{name: a}]}`, new: `{l: [{name: b}]}`},
		{name: "unset", old: `{l: [{name: a}]}`, new: `{}`},
	}
	mapUpdates = []updateCase{
		{name: "add", old: `{l: {a: x}}`, new: `{l: {a: x, b: x}}`},
		{name: "remove", old: `{l: {a: x, b: x}}`, new: `{l: {a: x}}`},
		{name: "change", old: `{l: {a: x}}`, new: `{l: {a: z}}`},
		{name: "replace", old: `{l: {a: x}}`, new: `{l: {b: x}}`},
		{name: "set", old: `{}`, new: `{l: {a: x}}`},
		{name: "unset", old: `{l: {a: x}}`, new: `{}`},
	}
)

const (
	mutLine = "x-kubernetes-mutability: "
	keyLine = "x-kubernetes-key-mutability: "
	updLine = "x-kubernetes-update: "
)

// kepRows covers the table of semantics.md 9.2 on a property, on the items
// of each kind of collection and on the keys of a list and a map.
func kepRows() []kepAsUpdate {
	var rows []kepAsUpdate
	props := map[string]string{immutable: "[NoSet, NoUnset, NoModify]", addOnly: "[NoUnset, NoModify]", removeOnly: "[NoSet, NoModify]"}
	onCollection := map[string]string{immutable: "", addOnly: "[NoRemoveItem]", removeOnly: "[NoAddItem]"}
	keys := map[string]string{immutable: "[NoAddItem, NoRemoveItem]", addOnly: "[NoRemoveItem]", removeOnly: "[NoAddItem]"}
	collections := []struct {
		name, template string
		updates        []updateCase
	}{
		{"atomic list", kepListTemplate, listUpdates},
		{"list-map", kepListMapTemplate, listMapUpdates},
		{"map", kepMapTemplate, mapUpdates},
	}
	for _, v := range allValues {
		rows = append(rows, kepAsUpdate{name: "property " + v, template: kepPropertyTemplate, updates: propertyUpdates,
			kepC: mutLine + v, updateC: updLine + props[v]})
		for _, c := range collections {
			updC := ""
			if onCollection[v] != "" {
				updC = updLine + onCollection[v]
			}
			rows = append(rows, kepAsUpdate{name: c.name + " items " + v, template: c.template, updates: c.updates,
				kepI: mutLine + v, updateC: updC, updateI: updLine + "[NoModify]"})
			rows = append(rows, kepAsUpdate{name: c.name + " keys " + v, template: c.template, updates: c.updates,
				kepC: keyLine + v, updateC: updLine + keys[v]})
		}
	}
	// Immutable on a list itself is its value and presence.
	rows = append(rows, kepAsUpdate{name: "list Immutable", template: kepListTemplate, updates: listUpdates,
		kepC: mutLine + immutable, updateC: updLine + "[NoSet, NoUnset, NoModify]"})
	return rows
}

// TestUpdateEqualsKEP checks that each KEP value and the constraints it
// equals deny the same updates at the same places.
func TestUpdateEqualsKEP(t *testing.T) {
	for _, row := range kepRows() {
		t.Run(row.name, func(t *testing.T) {
			kep := mustChecker(t, strings.NewReplacer("$C", row.kepC, "$I", row.kepI).Replace(row.template))
			upd := mustChecker(t, strings.NewReplacer("$C", row.updateC, "$I", row.updateI).Replace(row.template))
			denied := 0
			for _, u := range row.updates {
				k, c := places(check(t, kep, u.old, u.new)), places(check(t, upd, u.old, u.new))
				if k != c {
					t.Errorf("%s: Check(%s -> %s) denies at\n%s\nunder the KEP value, at\n%s\nunder the constraints", u.name, u.old, u.new, k, c)
				}
				if k != "" {
					denied++
				}
			}
			if denied == 0 || denied == len(row.updates) {
				t.Errorf("%d of %d updates denied: the table does not tell values apart", denied, len(row.updates))
			}
		})
	}
}

// places renders the distinct instance paths and kinds of violations:
// the declaring node and the wording differ by construction (a KEP AddOnly
// on items reports its key rule at the items schema, NoRemoveItem at the
// collection), the places an update is denied do not.
func places(vs []Violation) string {
	seen := map[string]bool{}
	var out []string
	for _, v := range vs {
		p := v.Path + " " + v.Kind
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return strings.Join(out, "\n")
}
