package translate_test

import (
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
)

// shapes covers declarations in every kind of place the semantics
// distinguishes.
var shapes = []verdictCase{{
	name: "optional-parents",
	schema: `
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
              c: {type: string, maxLength: 16, x-kubernetes-mutability: %s}
              d: {type: string, maxLength: 16}`,
	transitions: []transition{
		{`{spec: {a: {b: {c: x}}}}`, `{spec: {a: {b: {c: x, d: w}}}}`, "IAR"},
		{`{spec: {a: {b: {c: x}}}}`, `{spec: {a: {b: {c: z}}}}`, ""},
		// Removing any parent removes c.
		{`{spec: {a: {b: {c: x}}}}`, `{spec: {a: {b: {}}}}`, "R"},
		{`{spec: {a: {b: {c: x}}}}`, `{spec: {a: {}}}`, "R"},
		{`{spec: {a: {b: {c: x}}}}`, `{spec: {}}`, "R"},
		{`{spec: {a: {b: {c: x}}}}`, `{}`, "R"},
		// Setting it again through a new parent adds c.
		{`{}`, `{spec: {a: {b: {c: z}}}}`, "A"},
		{`{spec: {a: {}}}`, `{spec: {a: {b: {c: z}}}}`, "A"},
		{`{spec: {a: {b: {d: w}}}}`, `{spec: {a: {b: {c: z, d: w}}}}`, "A"},
		{`{spec: {a: {b: {d: w}}}}`, `{spec: {}}`, "IAR"},
	},
}, {
	// c and e come and go with spec, which requires a, which requires
	// them: their presence rules test spec alone, one rule for both. p is
	// required but nullable, so m comes and goes with p, not with spec.
	name: "required-below-optional-parent",
	schema: `
type: object
properties:
  spec:
    type: object
    required: [a, p]
    properties:
      a:
        type: object
        required: [c, e]
        properties:
          c: {type: string, maxLength: 16, x-kubernetes-mutability: %s}
          e: {type: string, maxLength: 16, x-kubernetes-mutability: %s}
          d: {type: string, maxLength: 16}
      p:
        type: object
        nullable: true
        required: [m]
        properties:
          m: {type: string, maxLength: 16, x-kubernetes-mutability: %s}`,
	transitions: []transition{
		{`{spec: {a: {c: x, e: k}, p: {m: z}}}`, `{spec: {a: {c: x, e: k, d: w}, p: {m: z}}}`, "IAR"},
		{`{spec: {a: {c: x, e: k}, p: {m: z}}}`, `{spec: {a: {c: v, e: k}, p: {m: z}}}`, ""},
		{`{spec: {a: {c: x, e: k}, p: {m: z}}}`, `{}`, "R"},
		{`{}`, `{spec: {a: {c: x, e: k}, p: {m: z}}}`, "A"},
		{`{spec: {a: {c: x, e: k}, p: {m: z}}}`, `{spec: {a: {c: x, e: k}, p: null}}`, "R"},
		{`{spec: {a: {c: x, e: k}, p: null}}`, `{spec: {a: {c: x, e: k}, p: {m: z}}}`, "A"},
		{`{spec: {a: {c: x, e: k}, p: null}}`, `{}`, "R"},
		{`{}`, `{spec: {a: {c: x, e: k}, p: null}}`, "A"},
	},
}, {
	name: "list-map-item-field",
	schema: `
type: object
properties:
  ports:
    type: array
    maxItems: 8
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name]
    items:
      type: object
      required: [name]
      properties:
        name: {type: string, maxLength: 16}
        port: {type: integer}
        protocol: {type: string, maxLength: 8, x-kubernetes-mutability: %s}`,
	transitions: []transition{
		{`{ports: [{name: a, protocol: TCP}]}`, `{ports: [{name: a, protocol: UDP}]}`, ""},
		{`{ports: [{name: a, protocol: TCP}]}`, `{ports: [{name: a, protocol: TCP, port: 80}]}`, "IAR"},
		{`{ports: [{name: a, protocol: TCP}]}`, `{ports: [{name: a}]}`, "R"},
		{`{ports: [{name: a}]}`, `{ports: [{name: a, protocol: TCP}]}`, "A"},
		// New and removed entries are not constrained.
		{`{ports: [{name: a, protocol: TCP}]}`, `{ports: [{name: b, protocol: UDP}]}`, "IAR"},
		{`{ports: [{name: a, protocol: TCP}]}`, `{ports: [{name: b}, {name: a, protocol: TCP}]}`, "IAR"},
		{`{}`, `{ports: [{name: a, protocol: TCP}]}`, "IAR"},
	},
}, {
	name: "map-value-field",
	schema: `
type: object
properties:
  byName:
    type: object
    maxProperties: 8
    additionalProperties:
      type: object
      properties:
        owner: {type: string, maxLength: 16, x-kubernetes-mutability: %s}
        note: {type: string, maxLength: 16}`,
	transitions: []transition{
		{`{byName: {a: {owner: x}}}`, `{byName: {a: {owner: w}}}`, ""},
		{`{byName: {a: {owner: x}}}`, `{byName: {a: {owner: x, note: n}}}`, "IAR"},
		{`{byName: {a: {owner: x}}}`, `{byName: {a: {}}}`, "R"},
		{`{byName: {a: {}}}`, `{byName: {a: {owner: x}}}`, "A"},
		{`{byName: {a: {owner: x}}}`, `{byName: {b: {owner: w}}}`, "IAR"},
	},
}, {
	name: "atomic-list-item-field",
	schema: `
type: object
properties:
  steps:
    type: array
    maxItems: 4
    items:
      type: object
      properties:
        image: {type: string, maxLength: 16, x-kubernetes-mutability: %s}
        args: {type: string, maxLength: 16}`,
	transitions: []transition{
		{`{steps: [{image: a}]}`, `{steps: [{image: b}]}`, ""},
		{`{steps: [{image: a}]}`, `{steps: [{image: a, args: x}]}`, "IAR"},
		{`{steps: [{image: a}]}`, `{steps: [{image: a}, {image: b}]}`, "IAR"},
		{`{steps: [{image: a}, {image: b}]}`, `{steps: [{image: a}]}`, "IAR"},
		{`{steps: [{image: a}]}`, `{steps: [{args: x}]}`, "R"},
		{`{steps: [{args: x}]}`, `{steps: [{image: a, args: x}]}`, "A"},
		{`{steps: [{image: a}, {image: b}]}`, `{steps: [{image: b}, {image: a}]}`, ""},
	},
}, {
	name:   "strict-order-below-immutable",
	values: "IA",
	schema: `
type: object
properties:
  spec:
    type: object
    x-kubernetes-mutability: %s
    properties:
      tags:
        type: array
        maxItems: 8
        x-kubernetes-list-type: set
        items: {type: string, maxLength: 16}
      ports:
        type: array
        maxItems: 8
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [name]
        items:
          type: object
          required: [name]
          properties:
            name: {type: string, maxLength: 16}
            hosts:
              type: array
              maxItems: 4
              x-kubernetes-list-type: set
              items: {type: string, maxLength: 16}
      opt: {type: string, maxLength: 16, nullable: true}`,
	transitions: []transition{
		{`{spec: {tags: [a, b]}}`, `{spec: {tags: [b, a]}}`, ""},
		{`{spec: {ports: [{name: a}, {name: b}]}}`, `{spec: {ports: [{name: b}, {name: a}]}}`, ""},
		{`{spec: {ports: [{name: a, hosts: [x, z]}]}}`, `{spec: {ports: [{name: a, hosts: [z, x]}]}}`, ""},
		{`{spec: {ports: [{name: a, hosts: [x, z]}]}}`, `{spec: {ports: [{name: a, hosts: [x, z]}]}}`, "IA"},
		// A null property is the same as an absent one.
		{`{spec: {tags: [a], opt: null}}`, `{spec: {tags: [a]}}`, "IA"},
		{`{spec: {tags: [a]}}`, `{spec: {tags: [a], opt: x}}`, ""},
		{`{}`, `{spec: {tags: [a]}}`, "A"},
	},
}, {
	// Properties the object requires are present on both sides, so their
	// presence is not tested; a required nullable one may be null, which
	// is absent, and an optional one may be absent on either side.
	name:   "required-properties-of-immutable-object",
	values: "IA",
	schema: `
type: object
properties:
  spec:
    type: object
    x-kubernetes-mutability: %s
    required: [name, tags, opt]
    properties:
      name: {type: string, maxLength: 16}
      tags:
        type: array
        maxItems: 8
        x-kubernetes-list-type: set
        items: {type: string, maxLength: 16}
      opt: {type: string, maxLength: 16, nullable: true}
      note: {type: string, maxLength: 16}`,
	transitions: []transition{
		{`{spec: {name: a, tags: [x], opt: null}}`, `{spec: {name: a, tags: [x], opt: null}}`, "IA"},
		{`{spec: {name: a, tags: [x], opt: null}}`, `{spec: {name: b, tags: [x], opt: null}}`, ""},
		{`{spec: {name: a, tags: [x], opt: null}}`, `{spec: {name: a, tags: [x, z], opt: null}}`, ""},
		{`{spec: {name: a, tags: [x, z], opt: null}}`, `{spec: {name: a, tags: [z, x], opt: null}}`, ""},
		{`{spec: {name: a, tags: [x], opt: null}}`, `{spec: {name: a, tags: [x], opt: v}}`, ""},
		{`{spec: {name: a, tags: [x], opt: v}}`, `{spec: {name: a, tags: [x], opt: null}}`, ""},
		{`{spec: {name: a, tags: [x], opt: v}}`, `{spec: {name: a, tags: [x], opt: v}}`, "IA"},
		{`{spec: {name: a, tags: [x], opt: null}}`, `{spec: {name: a, tags: [x], opt: null, note: w}}`, ""},
		{`{spec: {name: a, tags: [x], opt: null, note: w}}`, `{spec: {name: a, tags: [x], opt: null}}`, ""},
		{`{}`, `{spec: {name: a, tags: [x], opt: null}}`, "A"},
	},
}, {
	name:   "escaped-property-names",
	values: "I",
	schema: `
type: object
properties:
  spec:
    type: object
    properties:
      namespace:
        type: object
        properties:
          x-y: {type: string, maxLength: 8, x-kubernetes-mutability: %s}
          a.b: {type: string, maxLength: 8, x-kubernetes-mutability: %s}
          a/b: {type: string, maxLength: 8, x-kubernetes-mutability: %s}
          foo__bar: {type: string, maxLength: 8, x-kubernetes-mutability: %s}
          in: {type: string, maxLength: 8, x-kubernetes-mutability: %s}`,
	transitions: []transition{
		{`{spec: {namespace: {x-y: a, a.b: a, a/b: a, foo__bar: a, in: a}}}`, `{spec: {namespace: {x-y: a, a.b: a, a/b: a, foo__bar: a, in: a}}}`, "I"},
		{`{spec: {namespace: {x-y: a}}}`, `{spec: {namespace: {x-y: b}}}`, ""},
		{`{spec: {namespace: {a.b: a}}}`, `{spec: {namespace: {a.b: b}}}`, ""},
		{`{spec: {namespace: {a/b: a}}}`, `{spec: {namespace: {}}}`, ""},
		{`{spec: {namespace: {foo__bar: a}}}`, `{spec: {}}`, ""},
		{`{spec: {}}`, `{spec: {namespace: {in: a}}}`, ""},
	},
}, {
	// The apiserver's CEL == on list-maps indexes items by the escaped
	// names of their key properties (x__dash__y), which the stored items
	// do not have: every item gets the same key, and two equal lists of
	// two items or more compare unequal. Rules must not use == on such
	// lists.
	name:   "list-map-keys-that-need-escaping",
	values: "I",
	schema: `
type: object
properties:
  spec:
    type: object
    properties:
      single:
        type: array
        maxItems: 4
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [x-y]
        x-kubernetes-mutability: %s
        items:
          type: object
          required: [x-y]
          properties:
            x-y: {type: string, maxLength: 8}
            v: {type: string, maxLength: 8}
      pair:
        type: object
        properties:
          list:
            type: array
            maxItems: 4
            x-kubernetes-list-type: map
            x-kubernetes-list-map-keys: [k, in]
            items:
              type: object
              required: [k, in]
              x-kubernetes-mutability: %s
              properties:
                k: {type: string, maxLength: 8}
                in: {type: string, maxLength: 8}
                v: {type: string, maxLength: 8}
        x-kubernetes-mutability: %s`,
	transitions: []transition{
		{`{spec: {single: [{x-y: a, v: a}, {x-y: b, v: b}]}}`, `{spec: {single: [{x-y: a, v: a}, {x-y: b, v: b}]}}`, "I"},
		{`{spec: {single: [{x-y: a, v: a}, {x-y: b, v: b}]}}`, `{spec: {single: [{x-y: a, v: a}, {x-y: b, v: c}]}}`, ""},
		{`{spec: {single: [{x-y: a, v: a}, {x-y: b, v: b}]}}`, `{spec: {single: [{x-y: b, v: b}, {x-y: a, v: a}]}}`, ""},
		{`{spec: {pair: {list: [{k: a, in: a}, {k: a, in: b, v: x}]}}}`, `{spec: {pair: {list: [{k: a, in: a}, {k: a, in: b, v: x}]}}}`, "I"},
		{`{spec: {pair: {list: [{k: a, in: a}, {k: a, in: b, v: x}]}}}`, `{spec: {pair: {list: [{k: a, in: a}, {k: a, in: b, v: w}]}}}`, ""},
	},
}, {
	// A null map value is a value (semantics.md 2.1), but the apiserver runs
	// no rule on a null value: rules for these entries must sit on the map
	// and test for null.
	name: "nullable-entries",
	schema: `
type: object
properties:
  labels:
    type: object
    maxProperties: 4
    additionalProperties: {type: string, maxLength: 8, nullable: true, x-kubernetes-mutability: %s}
  owners:
    type: object
    maxProperties: 4
    additionalProperties:
      type: object
      nullable: true
      properties:
        name: {type: string, maxLength: 8, x-kubernetes-mutability: %s}`,
	transitions: []transition{
		{`{labels: {a: null}}`, `{labels: {a: x}}`, ""},
		{`{labels: {a: x}}`, `{labels: {a: null}}`, ""},
		{`{labels: {a: null}}`, `{labels: {a: null, b: null}}`, "IA"},
		{`{labels: {a: null}}`, `{labels: {}}`, "IR"},
		{`{owners: {o: {name: x}}}`, `{owners: {o: null}}`, "R"},
		{`{owners: {o: null}}`, `{owners: {o: {name: x}}}`, "A"},
		{`{owners: {o: null}}`, `{owners: {o: {}}}`, "IAR"},
	},
}, {
	// CEL's == on a map or list fails ("no such overload") where it compares
	// an object or list entry with null, so such values are compared entry
	// by entry.
	name:   "nullable-container-entries",
	values: "I",
	schema: `
type: object
properties:
  byName:
    type: object
    maxProperties: 4
    x-kubernetes-mutability: %s
    additionalProperties:
      type: object
      nullable: true
      properties:
        v: {type: string, maxLength: 8}
  steps:
    type: array
    maxItems: 4
    x-kubernetes-mutability: %s
    items: {type: array, nullable: true, maxItems: 2, items: {type: string, maxLength: 8}}`,
	transitions: []transition{
		{`{byName: {c: null}}`, `{byName: {c: {}}}`, ""},
		{`{byName: {c: {v: x}}}`, `{byName: {c: null}}`, ""},
		{`{byName: {c: null, d: {v: x}}}`, `{byName: {c: null, d: {v: x}}}`, "I"},
		{`{steps: [null]}`, `{steps: [[]]}`, ""},
		{`{steps: [[a]]}`, `{steps: [null]}`, ""},
		{`{steps: [null, [a]]}`, `{steps: [null, [a]]}`, "I"},
	},
}, {
	name:   "defaults-and-pruning",
	values: "I",
	schema: `
type: object
properties:
  spec:
    type: object
    x-kubernetes-mutability: %s
    properties:
      mode: {type: string, maxLength: 8, default: fast}
      size: {type: number}`,
	transitions: []transition{
		// Stored with its default, the omitted field is equal.
		{`{spec: {mode: fast}}`, `{spec: {}}`, "I"},
		{`{spec: {}}`, `{spec: {mode: slow}}`, ""},
		// Unknown fields are pruned before the comparison.
		{`{spec: {mode: fast}}`, `{spec: {mode: fast, unknown: 1}}`, "I"},
		// A number stored as 1 equals 1.0.
		{`{spec: {size: 1}}`, `{spec: {size: 1.0}}`, "I"},
		{`{spec: {size: 1}}`, `{spec: {size: 1.5}}`, ""},
	},
}, {
	name: "nested-collections",
	schema: `
type: object
properties:
  groups:
    type: object
    maxProperties: 4
    additionalProperties:
      type: array
      maxItems: 4
      x-kubernetes-key-mutability: %s
      items: {type: string, maxLength: 8}
  pools:
    type: array
    maxItems: 4
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [zone, name]
    items:
      type: object
      required: [zone, name]
      properties:
        zone: {type: string, maxLength: 8}
        name: {type: string, maxLength: 8}
        labels:
          type: object
          maxProperties: 4
          x-kubernetes-key-mutability: %s
          additionalProperties: {type: string, maxLength: 8}`,
	transitions: []transition{
		{`{groups: {g: [a]}}`, `{groups: {g: [a, b]}}`, "A"},
		{`{groups: {g: [a, b]}}`, `{groups: {g: [a]}}`, "R"},
		{`{groups: {g: [a]}}`, `{groups: {g: [b]}}`, "IAR"},
		{`{groups: {g: [a]}}`, `{groups: {h: [a, b]}}`, "IAR"},
		{`{pools: [{zone: z, name: n, labels: {a: x}}]}`, `{pools: [{zone: z, name: n, labels: {a: w}}]}`, "IAR"},
		{`{pools: [{zone: z, name: n, labels: {a: x}}]}`, `{pools: [{zone: z, name: n, labels: {a: x, b: w}}]}`, "A"},
		{`{pools: [{zone: z, name: n, labels: {a: x}}]}`, `{pools: [{zone: z, name: n}]}`, "R"},
		{`{pools: [{zone: z, name: n, labels: {a: x}}]}`, `{pools: [{zone: z, name: m}]}`, "IAR"},
	},
}}

func TestShapes(t *testing.T) {
	runVerdicts(t, shapes, testcrd.KubeVersions(t))
}
