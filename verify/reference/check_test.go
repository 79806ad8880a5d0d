package reference

import (
	"testing"
)

// updateCase is one update and the exact violations it must produce, as
// brief renders them.
type updateCase struct {
	name     string
	old, new string
	want     string
}

func runUpdates(t *testing.T, schema string, cases []updateCase) {
	t.Helper()
	c := mustChecker(t, schema)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := brief(check(t, c, tc.old, tc.new))
			if got != tc.want {
				t.Errorf("Check(%s -> %s) =\n%s\nwant\n%s", tc.old, tc.new, got, tc.want)
			}
		})
	}
}

// deepField is spec.a.b.foo with every parent optional, declared with $V.
const deepField = `
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
              foo:
                type: string
                x-kubernetes-mutability: %s`

func TestOptionalParents(t *testing.T) {
	foo := nodePath("spec", "a", "b", "foo")
	presence := "spec.a.b.foo presence " + foo
	tests := []struct {
		value string
		cases []updateCase
	}{{immutable, []updateCase{
		{"remove b", `{spec: {a: {b: {foo: x}}}}`, `{spec: {a: {}}}`, presence},
		{"remove a", `{spec: {a: {b: {foo: x}}}}`, `{spec: {}}`, presence},
		{"remove spec", `{spec: {a: {b: {foo: x}}}}`, `{}`, presence},
		{"reset after unset", `{spec: {a: {}}}`, `{spec: {a: {b: {foo: w}}}}`, presence},
		{"set spec", `{}`, `{spec: {a: {b: {foo: w}}}}`, presence},
		{"parents without foo", `{spec: {a: {b: {}}}}`, `{}`, ""},
		{"change", `{spec: {a: {b: {foo: x}}}}`, `{spec: {a: {b: {foo: w}}}}`, "spec.a.b.foo value " + foo},
	}}, {addOnly, []updateCase{
		{"unset parent", `{spec: {a: {b: {foo: x}}}}`, `{spec: {}}`, presence},
		{"reset after unset", `{spec: {a: {}}}`, `{spec: {a: {b: {foo: w}}}}`, ""},
		{"set spec", `{}`, `{spec: {a: {b: {foo: w}}}}`, ""},
	}}, {removeOnly, []updateCase{
		{"unset parent", `{spec: {a: {b: {foo: x}}}}`, `{spec: {}}`, ""},
		{"reset after unset", `{spec: {a: {}}}`, `{spec: {a: {b: {foo: w}}}}`, presence},
	}}}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			runUpdates(t, sprintf(deepField, tt.value), tt.cases)
		})
	}
}

func TestDeclarationsInsideEntries(t *testing.T) {
	schema := `
type: object
properties:
  spec:
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
            port:
              type: integer
              x-kubernetes-mutability: Immutable
      labels:
        type: object
        additionalProperties:
          type: object
          properties:
            owner:
              type: string
              x-kubernetes-mutability: AddOnly
      steps:
        type: array
        items:
          type: object
          properties:
            run:
              type: string
              x-kubernetes-mutability: Immutable`
	port := nodePath("spec", "ports", "items", "port")
	owner := nodePath("spec", "labels", "additionalProperties", "owner")
	run := nodePath("spec", "steps", "items", "run")
	runUpdates(t, schema, []updateCase{
		{"list-map: change existing", `{spec: {ports: [{name: a, port: 1}]}}`, `{spec: {ports: [{name: b}, {name: a, port: 2}]}}`,
			"spec.ports[1].port value " + port},
		{"list-map: remove field of existing", `{spec: {ports: [{name: a, port: 1}]}}`, `{spec: {ports: [{name: a}]}}`,
			"spec.ports[0].port presence " + port},
		{"list-map: add field to existing", `{spec: {ports: [{name: a}]}}`, `{spec: {ports: [{name: a, port: 1}]}}`,
			"spec.ports[0].port presence " + port},
		{"list-map: new entry", `{spec: {ports: [{name: a, port: 1}]}}`, `{spec: {ports: [{name: a, port: 1}, {name: b, port: 5}]}}`, ""},
		{"list-map: replace entry", `{spec: {ports: [{name: a, port: 1}]}}`, `{spec: {ports: [{name: b, port: 2}]}}`, ""},
		{"list-map: reorder", `{spec: {ports: [{name: a, port: 1}, {name: b}]}}`, `{spec: {ports: [{name: b}, {name: a, port: 1}]}}`, ""},
		{"map: change existing", `{spec: {labels: {x: {owner: p}}}}`, `{spec: {labels: {x: {owner: q}}}}`,
			"spec.labels[x].owner value " + owner},
		{"map: remove field of existing", `{spec: {labels: {x: {owner: p}}}}`, `{spec: {labels: {x: {}}}}`,
			"spec.labels[x].owner presence " + owner},
		{"map: add field to existing", `{spec: {labels: {x: {}}}}`, `{spec: {labels: {x: {owner: p}}}}`, ""},
		{"map: new and removed entries", `{spec: {labels: {x: {owner: p}}}}`, `{spec: {labels: {z: {owner: q}}}}`, ""},
		{"atomic: change existing index", `{spec: {steps: [{run: a}, {run: b}]}}`, `{spec: {steps: [{run: a}, {run: c}]}}`,
			"spec.steps[1].run value " + run},
		{"atomic: append", `{spec: {steps: [{run: a}]}}`, `{spec: {steps: [{run: a}, {run: c}]}}`, ""},
		{"atomic: truncate", `{spec: {steps: [{run: a}, {run: b}]}}`, `{spec: {steps: [{run: a}]}}`, ""},
		{"atomic: prepend", `{spec: {steps: [{run: a}]}}`, `{spec: {steps: [{run: c}, {run: a}]}}`,
			"spec.steps[0].run value " + run},
	})
}

func TestStrictOrder(t *testing.T) {
	schema := `
type: object
properties:
  set:
    type: array
    x-kubernetes-list-type: set
    x-kubernetes-mutability: Immutable
    items: {type: string}
  ports:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name]
    x-kubernetes-mutability: Immutable
    items:
      type: object
      properties:
        name: {type: string}`
	runUpdates(t, schema, []updateCase{
		{"set reordered", `{set: [a, b]}`, `{set: [b, a]}`, "set value " + nodePath("set")},
		{"list-map reordered", `{ports: [{name: a}, {name: b}]}`, `{ports: [{name: b}, {name: a}]}`, "ports value " + nodePath("ports")},
		{"unchanged", `{set: [a, b], ports: [{name: a}]}`, `{set: [a, b], ports: [{name: a}]}`, ""},
		{"removed", `{set: [a]}`, `{}`, "set presence " + nodePath("set")},
	})
}

func TestNullIsAbsent(t *testing.T) {
	schema := `
type: object
properties:
  foo:
    type: string
    nullable: true
    x-kubernetes-mutability: RemoveOnly
  spec:
    type: object
    x-kubernetes-mutability: Immutable
    properties:
      a: {type: string, nullable: true}
  m:
    type: object
    x-kubernetes-mutability: Immutable
    additionalProperties: {type: string, nullable: true}
  keys:
    type: object
    x-kubernetes-key-mutability: Immutable
    additionalProperties: {type: string, nullable: true}`
	runUpdates(t, schema, []updateCase{
		{"null to absent", `{foo: null}`, `{}`, ""},
		{"absent to null", `{}`, `{foo: null}`, ""},
		{"null to value", `{foo: null}`, `{foo: a}`, "foo presence " + nodePath("foo")},
		{"value to null", `{foo: a}`, `{foo: null}`, ""},
		{"null property inside immutable object", `{spec: {a: null}}`, `{spec: {}}`, ""},
		{"null map value is a value", `{m: {a: null}}`, `{m: {}}`, "m value " + nodePath("m")},
		{"null map value is a key", `{keys: {a: null}}`, `{keys: {}}`, "keys keys " + nodePath("keys")},
		{"null map value to string", `{keys: {a: null}}`, `{keys: {a: x}}`, ""},
	})
}

func TestNumbers(t *testing.T) {
	c := mustChecker(t, `
type: object
properties:
  num:
    type: number
    x-kubernetes-mutability: Immutable
  s:
    type: array
    x-kubernetes-list-type: set
    x-kubernetes-key-mutability: Immutable
    items: {type: number}
  l:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [id]
    x-kubernetes-key-mutability: Immutable
    items:
      type: object
      properties:
        id: {type: number}`)
	tests := []struct {
		name     string
		old, new map[string]interface{}
		want     string
	}{
		{"int and float", obj("num", int64(1)), obj("num", float64(1)), ""},
		{"int and int", obj("num", 1), obj("num", int64(1)), ""},
		{"different", obj("num", int64(1)), obj("num", 1.5), "num value " + nodePath("num")},
		{"large int is not its rounded float", obj("num", int64(1<<53+1)), obj("num", float64(1<<53)), "num value " + nodePath("num")},
		{"set keys", obj("s", []interface{}{int64(1), 2.5}), obj("s", []interface{}{2.5, float64(1)}), ""},
		{"list-map keys", obj("l", []interface{}{obj("id", int64(3))}), obj("l", []interface{}{obj("id", 3.0)}), ""},
	}
	for _, tt := range tests {
		if got := brief(c.Check(tt.old, tt.new)); got != tt.want {
			t.Errorf("%s: Check(%v -> %v) = %s, want %s", tt.name, tt.old, tt.new, got, tt.want)
		}
	}
}

func obj(key string, v interface{}) map[string]interface{} {
	return map[string]interface{}{key: v}
}

func TestKeyTuples(t *testing.T) {
	schema := `
type: object
properties:
  ports:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [port, protocol]
    x-kubernetes-key-mutability: Immutable
    items:
      type: object
      properties:
        port: {type: integer}
        protocol: {type: string}
        name: {type: string}`
	keys := "ports keys " + nodePath("ports")
	runUpdates(t, schema, []updateCase{
		{"non-key field", `{ports: [{port: 80, protocol: TCP, name: a}]}`, `{ports: [{port: 80, protocol: TCP, name: b}]}`, ""},
		{"second key changed", `{ports: [{port: 80, protocol: TCP}]}`, `{ports: [{port: 80, protocol: UDP}]}`, keys},
		{"same port, two protocols", `{ports: [{port: 80, protocol: TCP}, {port: 80, protocol: UDP}]}`,
			`{ports: [{port: 80, protocol: UDP}, {port: 80, protocol: TCP}]}`, ""},
		{"missing key field is null", `{ports: [{port: 80}]}`, `{ports: [{port: 80, protocol: null}]}`, ""},
		{"missing key field set", `{ports: [{port: 80}]}`, `{ports: [{port: 80, protocol: TCP}]}`, keys},
	})
}

func TestNestedCollections(t *testing.T) {
	schema := `
type: object
properties:
  groups:
    type: object
    additionalProperties:
      type: array
      x-kubernetes-key-mutability: AddOnly
      items: {type: string}
  rows:
    type: array
    items:
      type: object
      x-kubernetes-key-mutability: Immutable
      additionalProperties:
        type: object
        properties:
          v:
            type: string
            x-kubernetes-mutability: Immutable`
	inner := nodePath("groups", "additionalProperties")
	row := nodePath("rows", "items")
	v := nodePath("rows", "items", "additionalProperties", "v")
	runUpdates(t, schema, []updateCase{
		{"map of lists: shrink existing", `{groups: {g: [a, b]}}`, `{groups: {g: [a]}}`, "groups[g] keys " + inner},
		{"map of lists: grow existing", `{groups: {g: [a]}}`, `{groups: {g: [a, b]}}`, ""},
		{"map of lists: drop entry", `{groups: {g: [a, b]}}`, `{groups: {}}`, ""},
		{"map of lists: new entry", `{}`, `{groups: {g: []}}`, ""},
		{"list of maps: add key", `{rows: [{a: {}}]}`, `{rows: [{a: {}, b: {}}]}`, "rows[0] keys " + row},
		{"list of maps: new row", `{rows: [{a: {}}]}`, `{rows: [{a: {}}, {b: {}}]}`, ""},
		{"list of maps: deep value", `{rows: [{a: {v: x}}]}`, `{rows: [{a: {v: w}}]}`, "rows[0][a].v value " + v},
		{"list of maps: deep presence", `{rows: [{a: {v: x}}]}`, `{rows: [{a: {}}]}`, "rows[0][a].v presence " + v},
	})
}

func TestDeclarationsBelowDeclarations(t *testing.T) {
	schema := `
type: object
properties:
  spec:
    type: object
    x-kubernetes-mutability: Immutable
    properties:
      b:
        type: string
        x-kubernetes-mutability: AddOnly
      list:
        type: array
        x-kubernetes-key-mutability: RemoveOnly
        items: {type: string}`
	spec, b, list := nodePath("spec"), nodePath("spec", "b"), nodePath("spec", "list")
	runUpdates(t, schema, []updateCase{
		{"change below", `{spec: {b: x}}`, `{spec: {b: w}}`, lines("spec value "+spec, "spec.b value "+b)},
		{"remove below", `{spec: {b: x}}`, `{spec: {}}`, lines("spec value "+spec, "spec.b presence "+b)},
		{"add below", `{spec: {}}`, `{spec: {b: x}}`, "spec value " + spec},
		{"grow list below", `{spec: {list: [a]}}`, `{spec: {list: [a, b]}}`, lines("spec value "+spec, "spec.list keys "+list)},
		{"remove all", `{spec: {b: x, list: [a]}}`, `{}`, lines("spec presence "+spec, "spec.b presence "+b)},
	})
}

func TestItemsNarrowingKeys(t *testing.T) {
	schema := `
type: object
properties:
  log:
    type: array
    items:
      type: string
      x-kubernetes-mutability: AddOnly
  frozen:
    type: object
    x-kubernetes-key-mutability: Immutable
    additionalProperties:
      type: string
      x-kubernetes-mutability: AddOnly
  tags:
    type: array
    x-kubernetes-list-type: set
    items:
      type: string
      x-kubernetes-mutability: RemoveOnly`
	logItems := nodePath("log", "items")
	frozen, frozenValues := nodePath("frozen"), nodePath("frozen", "additionalProperties")
	tagItems := nodePath("tags", "items")
	runUpdates(t, schema, []updateCase{
		{"append", `{log: [a]}`, `{log: [a, b]}`, ""},
		{"truncate", `{log: [a, b]}`, `{log: [a]}`, "log keys " + logItems},
		{"change", `{log: [a]}`, `{log: [b]}`, "log[0] value " + logItems},
		{"remove list", `{log: [a]}`, `{}`, "log keys " + logItems},
		{"both declarations: add", `{frozen: {a: x}}`, `{frozen: {a: x, b: w}}`, "frozen keys " + frozen},
		{"both declarations: remove", `{frozen: {a: x}}`, `{frozen: {}}`, lines("frozen keys "+frozen, "frozen keys "+frozenValues)},
		{"both declarations: change", `{frozen: {a: x}}`, `{frozen: {a: w}}`, "frozen[a] value " + frozenValues},
		{"set items RemoveOnly: add", `{tags: [a]}`, `{tags: [a, b]}`, "tags keys " + tagItems},
		{"set items RemoveOnly: remove, reorder", `{tags: [a, b, c]}`, `{tags: [c, a]}`, ""},
	})
}

func TestInsideSetItems(t *testing.T) {
	schema := `
type: object
properties:
  set:
    type: array
    x-kubernetes-list-type: set
    items:
      type: object
      x-kubernetes-map-type: atomic
      properties:
        a:
          type: string
          x-kubernetes-mutability: Immutable
        l:
          type: array
          x-kubernetes-key-mutability: Immutable
          items: {type: string}`
	runUpdates(t, schema, []updateCase{
		{"change", `{set: [{a: x, l: [p]}]}`, `{set: [{a: y, l: [p, q]}]}`, ""},
		{"remove field", `{set: [{a: x}]}`, `{set: [{}]}`, ""},
		{"reorder", `{set: [{a: x}, {a: w}]}`, `{set: [{a: w}, {a: x}]}`, ""},
	})
}
