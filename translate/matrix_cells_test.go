package translate_test

import (
	"fmt"
	"strings"

	"github.com/mut2cel/mut2cel/translate"
)

// The cells of the matrix of docs/semantics.md section 10, row by row;
// matrix_test.go runs them and holds them against the table.

// inSpec is a schema whose optional object spec has the property f of the
// given kind (flow YAML without braces, declaration included).
func inSpec(kind string) string {
	return `{type: object, properties: {spec: {type: object, properties: {f: {` + kind + `}}}}}`
}

// inMap is a schema with the map m whose values have the given kind.
func inMap(kind string) string {
	return `{type: object, properties: {m: {type: object, maxProperties: 4, additionalProperties: {` + kind + `}}}}`
}

// spec and mapOf write the objects of inSpec and inMap schemas.
func spec(v string) string  { return `{"spec": {"f": ` + v + `}}` }
func mapOf(v string) string { return `{"m": ` + v + `}` }

// scalarCells are the field, entry and presence cells of a scalar kind,
// with a and b two values of it (JSON) and same, when set, another
// spelling of a.
func scalarCells(row, kind, a, b, same string, field, entries, presence string) []matrixCell {
	fieldUpdates := []matrixUpdate{
		deny(spec(a), spec(b)),
		allow(spec(a), `{"spec": {}}`),
		allow(`{"spec": {}}`, spec(b)),
		allow(spec(a), spec(a)),
	}
	entryUpdates := []matrixUpdate{
		deny(mapOf(`{"k": `+a+`}`), mapOf(`{"k": `+b+`}`)),
		allow(mapOf(`{"k": `+a+`}`), mapOf(`{"j": `+b+`}`)),
		allow(mapOf(`{"k": `+a+`}`), mapOf(`{"k": `+a+`, "j": `+b+`}`)),
	}
	if same != "" {
		fieldUpdates = append(fieldUpdates, allow(spec(a), spec(same)))
		entryUpdates = append(entryUpdates, allow(mapOf(`{"k": `+a+`}`), mapOf(`{"k": `+same+`}`)))
	}
	return []matrixCell{
		{row: row, col: colField, want: field, probes: []matrixProbe{probe(inSpec(kind+`, `+noModify), fieldUpdates...)}},
		{row: row, col: colEntries, want: entries, probes: []matrixProbe{probe(inMap(kind+`, `+noModify), entryUpdates...)}},
		presenceCell(row, kind, a, b, presence),
	}
}

// presenceCell declares NoSet and NoUnset on spec.f of the given kind.
func presenceCell(row, kind, a, b, want string) matrixCell {
	return matrixCell{row: row, col: colPresence, want: want, probes: []matrixProbe{
		probe(inSpec(kind+`, `+noSet),
			deny(`{"spec": {}}`, spec(a)),
			deny(`{}`, spec(a)),
			allow(spec(a), spec(b)),
			allow(spec(a), `{}`)),
		probe(inSpec(kind+`, `+noUnset),
			deny(spec(a), `{"spec": {}}`),
			deny(spec(a), `{}`),
			allow(`{"spec": {}}`, spec(a)),
			allow(spec(a), spec(b))),
	}}
}

var matrixCells = concat(
	scalarCells("string", `type: string, maxLength: 8`, `"a"`, `""`, "", "exact", "exact", "exact"),
	// An integer sent as 1.0: rules that read it fail (section 2.4).
	deviating(scalarCells("integer", `type: integer`, `1`, `2`, "", "deviation §2.4", "deviation §2.4", "exact"),
		deviate(spec(`1`), spec(`1.0`), false), deviate(mapOf(`{"k": 1}`), mapOf(`{"k": 1.0}`), false)),
	// Beyond 2^53 a number reads as the nearest double (section 8).
	deviating(scalarCells("number", `type: number`, `1`, `1.5`, `1.0`, "deviation §8", "deviation §8", "exact"),
		deviate(spec(`9007199254740993`), spec(`9007199254740992`), true),
		deviate(mapOf(`{"k": 9007199254740993}`), mapOf(`{"k": 9007199254740992}`), true)),
	scalarCells("boolean", `type: boolean`, `true`, `false`, "", "exact", "exact", "exact"),
	deviating(scalarCells("int-or-string", `x-kubernetes-int-or-string: true`, `1`, `"1"`, "", "deviation §2.4", "deviation §2.4", "exact"),
		deviate(spec(`1`), spec(`1.0`), false), deviate(mapOf(`{"k": 1}`), mapOf(`{"k": 1.0}`), false)),
	scalarCells("format date", `type: string, format: date`, `"2024-05-01"`, `"2024-05-02"`, "", "exact", "exact", "exact"),
	scalarCells("format date-time", `type: string, format: date-time`, `"2024-05-01T10:00:00Z"`, `"2024-05-01T10:00:00.000Z"`, "", "refused: Format", "refused: Format", "refused: Format"),
	withPresence(scalarCells("format duration", `type: string, format: duration`, `"1h"`, `"60m"`, "", "refused: Format", "refused: Format", "exact"),
		allow(spec(`"1 hour"`), spec(`"1 hour"`)), allow(spec(`"2d"`), spec(`"3 weeks"`))),
	scalarCells("format byte", `type: string, format: byte`, `"YQ=="`, `"YR=="`, "", "refused: Format", "refused: Format", "refused: Format"),
	// Under the opt-in (section 8), respellings of one value are no
	// change; strings CEL cannot read are in TestFormatsAsValues, since
	// the rules that read them fail, which denies.
	scalarCells("format date-time, compared as values", `type: string, format: date-time, `+asValues, `"2024-05-01T10:00:00Z"`, `"2024-05-01T10:00:01Z"`, `"2024-05-01T12:00:00+02:00"`, "exact", "exact", "exact"),
	scalarCells("format duration, compared as values", `type: string, format: duration, maxLength: 16, `+asValues, `"1h"`, `"2h"`, `"60m"`, "exact", "exact", "exact"),
	scalarCells("format byte, compared as values", `type: string, format: byte, maxLength: 16, `+asValues, `"YQ=="`, `"Yg=="`, `"YR=="`, "exact", "exact", "exact"),
	scalarCells("other formats", `type: string, format: uri, maxLength: 32`, `"https://a.b/c"`, `"https://a.b/C"`, "", "exact", "exact", "exact"),
	scalarCells("enum", `type: string, enum: [a, b]`, `"a"`, `"b"`, "", "exact", "exact", "exact"),
	singleEnumCells,
	defaultCells,
	requiredCells,
	nullablePropertyCells,
	nullableEntryCells,
	listCells("list atomic", `maxItems: 4`, nil, "exact"),
	// Below 1.33, CEL has no comprehension over indices, and the rules
	// iterate over the literal list of indices up to maxItems.
	listCells("list atomic, no maxItems, below 1.33", ``, []translate.KubeVersion{{Major: 1, Minor: 32}}, "refused: IndexComparison"),
	setCells,
	objectSetCells,
	listMapCells("list map, string keys", `type: string, maxLength: 4`, `"a"`, `"b"`, "", "exact"),
	listMapCells("list map, integer keys", `type: integer`, `1`, `2`, "", "deviation §2.4"),
	listMapCells("list map, number keys", `type: number`, `1`, `2.5`, `1.0`, "exact"),
	listMapCells("list map, keys named x-y", `type: string, maxLength: 4`, `"a"`, `"b"`, "", "exact"),
	formattedKeyCells,
	withKeys(mapCells("map", ""),
		// Keys of a map of date-times CEL may fail to read are
		// compared without reading a value.
		probe(`{type: object, properties: {m: {type: object, maxProperties: 4, `+noRemove+`, additionalProperties: {type: string, format: date-time}}}}`,
			allow(mapOf(`{"k": "2024-05-01t10:00:00z"}`), mapOf(`{"k": "2024-05-01t10:00:00z", "j": "2024-05-01t10:00:00z"}`)),
			deny(mapOf(`{"k": "2024-05-01t10:00:00z"}`), mapOf(`{"j": "2024-05-01t10:00:00z"}`))),
		probe(`{type: object, properties: {m: {type: object, maxProperties: 4, `+noAdd+`, additionalProperties: {type: string, format: byte}}}}`,
			allow(mapOf(`{"k": "+/8="}`), mapOf(`{"k": "YQ=="}`)),
			deny(mapOf(`{"k": "+/8="}`), mapOf(`{"k": "+/8=", "j": "+/8="}`)))),
	mapCells("map, x-kubernetes-map-type atomic", `x-kubernetes-map-type: atomic, `),
	freeFormCells,
	embeddedCells,
	misplacedCells,
	nameCells,
)

// deviating adds to the field and entry cells of scalarCells an update
// each that shows their deviation.
func deviating(cells []matrixCell, field, entry matrixUpdate) []matrixCell {
	cells[0].probes[0].updates = append(cells[0].probes[0].updates, field)
	cells[1].probes[0].updates = append(cells[1].probes[0].updates, entry)
	return cells
}

// withKeys adds probes to the key cell of mapCells.
func withKeys(cells []matrixCell, probes ...matrixProbe) []matrixCell {
	cells[4].probes = append(cells[4].probes, probes...)
	return cells
}

// withPresence adds updates to both probes of the presence cell of
// scalarCells.
func withPresence(cells []matrixCell, updates ...matrixUpdate) []matrixCell {
	for i := range cells[2].probes {
		cells[2].probes[i].updates = append(cells[2].probes[i].updates, updates...)
	}
	return cells
}

func concat(parts ...[]matrixCell) []matrixCell {
	var out []matrixCell
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// TestMatrix checks every cell: exact and deviation cells through the
// apiserver's CEL validator and the reference checker, refused cells by

var singleEnumCells = []matrixCell{
	{row: "single-value enum", col: colField, want: "exact", probes: []matrixProbe{
		probe(inSpec(`type: string, enum: [a], `+noModify),
			allow(spec(`"a"`), spec(`"a"`)), allow(spec(`"a"`), `{"spec": {}}`), allow(`{"spec": {}}`, spec(`"a"`))),
	}},
	{row: "single-value enum", col: colEntries, want: "exact", probes: []matrixProbe{
		probe(inMap(`type: string, enum: [a], `+noModify),
			allow(mapOf(`{"k": "a"}`), mapOf(`{"k": "a", "j": "a"}`)), allow(mapOf(`{"k": "a"}`), mapOf(`{}`))),
	}},
	{row: "single-value enum", col: colPresence, want: "exact", probes: []matrixProbe{
		probe(inSpec(`type: string, enum: [a], `+noSet), deny(`{"spec": {}}`, spec(`"a"`)), allow(spec(`"a"`), `{}`)),
		probe(inSpec(`type: string, enum: [a], `+noUnset), deny(spec(`"a"`), `{}`), allow(`{}`, spec(`"a"`))),
	}},
}

// A defaulted property is defaulted again when removed, under a present
// parent; a null map value with a default takes the default.
var defaultCells = []matrixCell{
	{row: "default", col: colField, want: "exact", probes: []matrixProbe{
		probe(inSpec(`type: string, maxLength: 8, default: d, `+noModify),
			deny(spec(`"a"`), `{"spec": {}}`),
			allow(spec(`"d"`), `{"spec": {}}`),
			allow(`{}`, spec(`"b"`)),
			deny(spec(`"a"`), spec(`"b"`))),
	}},
	{row: "default", col: colEntries, want: "exact", probes: []matrixProbe{
		probe(inMap(`type: string, maxLength: 8, default: d, `+noModify),
			deny(mapOf(`{"k": "a"}`), mapOf(`{"k": null}`)),
			allow(mapOf(`{"k": "d"}`), mapOf(`{"k": null}`)),
			allow(mapOf(`{"k": "a"}`), mapOf(`{"j": null}`))),
	}},
	{row: "default", col: colPresence, want: "exact", probes: []matrixProbe{
		probe(inSpec(`type: string, maxLength: 8, default: d, `+noSet),
			deny(`{}`, `{"spec": {}}`), allow(`{"spec": {}}`, spec(`"a"`))),
		probe(inSpec(`type: string, maxLength: 8, default: d, `+noUnset),
			deny(spec(`"a"`), `{}`), allow(spec(`"a"`), `{"spec": {}}`)),
	}},
}

// requiredSpec is inSpec with f required by spec.
func requiredSpec(kind string) string {
	return `{type: object, properties: {spec: {type: object, required: [f], properties: {f: {` + kind + `}}}}}`
}

var requiredCells = []matrixCell{
	{row: "required", col: colField, want: "exact", probes: []matrixProbe{
		probe(requiredSpec(`type: string, maxLength: 8, `+noModify),
			deny(spec(`"a"`), spec(`"b"`)), allow(spec(`"a"`), `{}`), allow(`{}`, spec(`"b"`))),
	}},
	{row: "required", col: colPresence, want: "exact", probes: []matrixProbe{
		probe(requiredSpec(`type: string, maxLength: 8, `+noSet), deny(`{}`, spec(`"a"`)), allow(spec(`"a"`), spec(`"b"`))),
		probe(requiredSpec(`type: string, maxLength: 8, `+noUnset), deny(spec(`"a"`), `{}`), allow(`{}`, spec(`"a"`))),
	}},
	// The presence of a required value is its parent's: no rule reads
	// the value, which CEL may fail to read.
	{row: "format date-time or byte, required", col: colField, want: "refused: Format", probes: []matrixProbe{
		probe(requiredSpec(`type: string, format: date-time, ` + noModify)),
		probe(requiredSpec(`type: string, format: byte, maxLength: 64, ` + noModify)),
	}},
	{row: "format date-time or byte, required", col: colPresence, want: "exact", probes: []matrixProbe{
		probe(requiredSpec(`type: string, format: date-time, `+noSet),
			deny(`{}`, spec(`"2024-05-01t10:00:00z"`)),
			allow(spec(`"2024-05-01t10:00:00z"`), spec(`"2024-05-01t10:00:00z"`)),
			allow(spec(`"2024-05-01T10:00:00Z"`), spec(`"2024-05-01t11:00:00z"`))),
		probe(requiredSpec(`type: string, format: byte, maxLength: 64, `+noUnset),
			deny(spec(`"YQ=="`), `{}`),
			allow(spec(`"+/8="`), spec(`"+/8="`)),
			allow(spec(`"YQ=="`), spec(`"+/8="`))),
	}},
}

// A null property is absent (section 2.1).
var nullablePropertyCells = []matrixCell{
	{row: "nullable property", col: colField, want: "exact", probes: []matrixProbe{
		probe(inSpec(`type: string, nullable: true, maxLength: 8, `+noModify),
			deny(spec(`"a"`), spec(`"b"`)), allow(spec(`"a"`), spec(`null`)), allow(spec(`null`), spec(`"b"`)), allow(spec(`null`), `{"spec": {}}`)),
		probe(inSpec(`type: object, nullable: true, properties: {a: {type: string, maxLength: 8, nullable: true}}, `+noModify),
			deny(spec(`{"a": "x"}`), spec(`{}`)), allow(spec(`{"a": null}`), spec(`{}`)), allow(spec(`{}`), spec(`null`))),
	}},
	{row: "nullable property", col: colPresence, want: "exact", probes: []matrixProbe{
		probe(inSpec(`type: string, nullable: true, maxLength: 8, `+noSet),
			deny(spec(`null`), spec(`"a"`)), allow(`{"spec": {}}`, spec(`null`))),
		probe(inSpec(`type: string, nullable: true, maxLength: 8, `+noUnset),
			deny(spec(`"a"`), spec(`null`)), allow(spec(`null`), `{"spec": {}}`)),
	}},
}

// A null entry is a value, and its key present (section 2.1); nothing
// exists below it.
var nullableEntryCells = []matrixCell{
	{row: "nullable entry", col: colField, want: "exact", probes: []matrixProbe{
		probe(inMap(`type: object, nullable: true, properties: {f: {type: string, maxLength: 8, `+noModify+`}}`),
			deny(mapOf(`{"k": {"f": "a"}}`), mapOf(`{"k": {"f": "b"}}`)),
			allow(mapOf(`{"k": {"f": "a"}}`), mapOf(`{"k": null}`)),
			allow(mapOf(`{"k": null}`), mapOf(`{"k": {"f": "b"}}`))),
	}},
	{row: "nullable entry", col: colEntries, want: "exact", probes: []matrixProbe{
		probe(inMap(`type: string, nullable: true, maxLength: 8, `+noModify),
			deny(mapOf(`{"k": "a"}`), mapOf(`{"k": null}`)),
			deny(mapOf(`{"k": null}`), mapOf(`{"k": "a"}`)),
			allow(mapOf(`{"k": null}`), mapOf(`{"k": null, "j": "a"}`)),
			allow(mapOf(`{"k": null}`), mapOf(`{}`))),
		probe(`{type: object, properties: {l: {type: array, maxItems: 4, items: {type: object, nullable: true, properties: {a: {type: string, maxLength: 4}}, `+noModify+`}}}}`,
			deny(`{"l": [null]}`, `{"l": [{}]}`),
			deny(`{"l": [{"a": "x"}]}`, `{"l": [null]}`),
			allow(`{"l": [null]}`, `{"l": [null, {}]}`)),
	}},
	{row: "nullable entry", col: colCollection, want: "exact", probes: []matrixProbe{
		probe(`{type: object, properties: {m: {type: object, maxProperties: 4, `+noModify+`, additionalProperties: {type: object, nullable: true, properties: {a: {type: string, maxLength: 4}}}}}}`,
			deny(mapOf(`{"k": null}`), mapOf(`{"k": {}}`)),
			deny(mapOf(`{"k": null}`), mapOf(`{}`)),
			allow(mapOf(`{"k": null}`), mapOf(`{"k": null}`))),
		probe(`{type: object, properties: {l: {type: array, maxItems: 4, `+noModify+`, items: {type: string, nullable: true, maxLength: 4}}}}`,
			deny(`{"l": [null]}`, `{"l": []}`),
			deny(`{"l": [null, "a"]}`, `{"l": ["a", null]}`),
			allow(`{"l": [null]}`, `{"l": [null]}`)),
	}},
	// A field the entry requires comes and goes with the entry's null.
	{row: "nullable entry", col: colPresence, want: "exact", probes: []matrixProbe{
		probe(inMap(`type: object, nullable: true, required: [f], properties: {f: {type: string, maxLength: 8, `+noUnset+`}}`),
			deny(mapOf(`{"k": {"f": "a"}}`), mapOf(`{"k": null}`)),
			allow(mapOf(`{"k": {"f": "a"}}`), mapOf(`{}`)),
			allow(mapOf(`{"k": null}`), mapOf(`{"k": {"f": "a"}}`))),
		probe(inMap(`type: object, nullable: true, required: [f], properties: {f: {type: string, maxLength: 8, `+noSet+`}}`),
			deny(mapOf(`{"k": null}`), mapOf(`{"k": {"f": "a"}}`)),
			allow(mapOf(`{"k": {"f": "a"}}`), mapOf(`{"k": null}`)),
			allow(mapOf(`{}`), mapOf(`{"k": {"f": "a"}}`))),
	}},
	{row: "nullable entry", col: colKeys, want: "exact", probes: []matrixProbe{
		probe(`{type: object, properties: {m: {type: object, maxProperties: 4, `+noRemove+`, additionalProperties: {type: string, nullable: true, maxLength: 4}}}}`,
			deny(mapOf(`{"k": null}`), mapOf(`{}`)), allow(mapOf(`{"k": null}`), mapOf(`{"k": "a"}`))),
		probe(`{type: object, properties: {m: {type: object, maxProperties: 4, `+noAdd+`, additionalProperties: {type: string, nullable: true, maxLength: 4}}}}`,
			deny(mapOf(`{}`), mapOf(`{"k": null}`)), allow(mapOf(`{"k": "a"}`), mapOf(`{"k": null}`))),
	}},
}

// inList is a schema with the list l, of the given list type ("" for
// none) and bounds, whose items have the given kind; decl is declared on
// the list.
func inList(listType, bounds, decl, items string) string {
	var extra []string
	for _, e := range []string{listType, bounds, decl} {
		if e != "" {
			extra = append(extra, e)
		}
	}
	head := `type: array`
	if len(extra) > 0 {
		head += `, ` + strings.Join(extra, `, `)
	}
	return `{type: object, properties: {l: {` + head + `, items: {` + items + `}}}}`
}

// listCells are the cells of atomic lists, with the list type unset and
// atomic, at the versions given (nil: matrixVersions). Items are paired
// by index, with the verdict byIndex.
func listCells(row, bounds string, versions []translate.KubeVersion, byIndex string) []matrixCell {
	str := `type: string, maxLength: 4`
	each := func(f func(lt string) matrixProbe) []matrixProbe {
		var out []matrixProbe
		for _, lt := range []string{"", "x-kubernetes-list-type: atomic"} {
			p := f(lt)
			p.versions = versions
			out = append(out, p)
		}
		return out
	}
	return []matrixCell{
		{row: row, col: colField, want: byIndex, probes: each(func(lt string) matrixProbe {
			return probe(inList(lt, bounds, "", `type: object, properties: {f: {`+str+`, `+noModify+`}, g: {`+str+`}}`),
				deny(`{"l": [{"f": "a"}]}`, `{"l": [{"f": "b"}]}`),
				deny(`{"l": [{"f": "a"}, {"f": "b"}]}`, `{"l": [{"f": "b"}, {"f": "a"}]}`),
				allow(`{"l": [{"f": "a"}]}`, `{"l": [{"g": "x"}, {"f": "b"}]}`),
				allow(`{"l": [{"f": "a"}, {"f": "b"}]}`, `{"l": [{"f": "a"}]}`))
		})},
		{row: row, col: colEntries, want: byIndex, probes: each(func(lt string) matrixProbe {
			return probe(inList(lt, bounds, "", str+`, `+noModify),
				deny(`{"l": ["a"]}`, `{"l": ["b"]}`),
				deny(`{"l": ["a", "b"]}`, `{"l": ["b", "a"]}`),
				allow(`{"l": ["a"]}`, `{"l": ["a", "b"]}`),
				allow(`{"l": ["a", "b"]}`, `{}`))
		})},
		{row: row, col: colCollection, want: "exact", probes: each(func(lt string) matrixProbe {
			return probe(inList(lt, bounds, noModify, str),
				deny(`{"l": ["a"]}`, `{"l": ["a", "b"]}`),
				deny(`{"l": ["a", "b"]}`, `{"l": ["b", "a"]}`),
				allow(`{"l": ["a"]}`, `{}`),
				allow(`{}`, `{"l": ["b"]}`))
		})},
		{row: row, col: colPresence, want: "exact", probes: each(func(lt string) matrixProbe {
			return probe(inList(lt, bounds, `x-kubernetes-update: [NoSet, NoUnset]`, str),
				deny(`{}`, `{"l": []}`),
				deny(`{"l": []}`, `{}`),
				allow(`{"l": []}`, `{"l": ["a"]}`))
		})},
		{row: row, col: colKeys, want: "exact", probes: append(
			each(func(lt string) matrixProbe {
				return probe(inList(lt, bounds, noAdd, str),
					deny(`{"l": ["a"]}`, `{"l": ["a", "b"]}`),
					deny(`{}`, `{"l": ["a"]}`),
					allow(`{"l": ["a"]}`, `{"l": ["b"]}`),
					allow(`{}`, `{"l": []}`))
			}),
			each(func(lt string) matrixProbe {
				return probe(inList(lt, bounds, noRemove, str),
					deny(`{"l": ["a", "b"]}`, `{"l": ["b"]}`),
					deny(`{"l": ["a"]}`, `{}`),
					allow(`{"l": ["a"]}`, `{"l": ["b", "c"]}`),
					allow(`{"l": []}`, `{}`))
			})...),
		},
	}
}

// Sets: the key of an item is its value, so items declarations constrain
// nothing (section 3.3).
var setCells = []matrixCell{
	{row: "list set, scalar items", col: colEntries, want: "exact", probes: []matrixProbe{
		probe(inList(`x-kubernetes-list-type: set`, `maxItems: 4`, ``, `type: string, maxLength: 4, `+noModify),
			allow(`{"l": ["a"]}`, `{"l": ["b"]}`), allow(`{"l": ["a", "b"]}`, `{"l": ["b", "a"]}`)),
	}},
	{row: "list set, scalar items", col: colCollection, want: "exact", probes: []matrixProbe{
		probe(inList(`x-kubernetes-list-type: set`, `maxItems: 4`, noModify, `type: string, maxLength: 4`),
			deny(`{"l": ["a", "b"]}`, `{"l": ["b", "a"]}`), deny(`{"l": ["a"]}`, `{"l": ["a", "b"]}`), allow(`{"l": ["a"]}`, `{}`)),
		probe(inList(`x-kubernetes-list-type: set`, `maxItems: 4`, noModify, `type: number`),
			deny(`{"l": [1, 2]}`, `{"l": [2, 1]}`), allow(`{"l": [1, 2]}`, `{"l": [1.0, 2e0]}`)),
	}},
	{row: "list set, scalar items", col: colPresence, want: "exact", probes: []matrixProbe{
		probe(inList(`x-kubernetes-list-type: set`, `maxItems: 4`, `x-kubernetes-update: [NoSet, NoUnset]`, `type: string, maxLength: 4`),
			deny(`{}`, `{"l": []}`), deny(`{"l": ["a"]}`, `{}`), allow(`{"l": ["a"]}`, `{"l": []}`)),
	}},
	{row: "list set, scalar items", col: colKeys, want: "exact", probes: []matrixProbe{
		probe(inList(`x-kubernetes-list-type: set`, `maxItems: 4`, noAdd, `type: string, maxLength: 4`),
			deny(`{"l": ["a"]}`, `{"l": ["a", "b"]}`), allow(`{"l": ["a", "b"]}`, `{"l": ["b", "a"]}`), allow(`{"l": ["a", "b"]}`, `{"l": ["b"]}`)),
		probe(inList(`x-kubernetes-list-type: set`, `maxItems: 4`, noRemove, `type: integer`),
			deny(`{"l": [1, 2]}`, `{"l": [2]}`), allow(`{"l": [1]}`, `{"l": [2, 1]}`), deny(`{"l": [1]}`, `{}`)),
		probe(inList(`x-kubernetes-list-type: set`, `maxItems: 4`, noAdd, `type: number`),
			allow(`{"l": [1, 2.5]}`, `{"l": [2.5, 1.0]}`), deny(`{"l": [1]}`, `{"l": [1e0, 1.5]}`)),
	}},
}

// objectSetItems are atomic objects whose == in the apiserver's CEL is
// not strict: a nullable property, an escape-like name, an inner set.
func objectSetItems(decl string) string {
	return `type: object, x-kubernetes-map-type: atomic, properties: {a: {type: string, maxLength: 4, nullable: true` + decl + `}, __meta__: {type: integer}, s: {type: array, maxItems: 2, x-kubernetes-list-type: set, items: {type: string, maxLength: 2}}}`
}

var objectSetCells = []matrixCell{
	{row: "list set, atomic objects with non-strict ==", col: colField, want: "exact", probes: []matrixProbe{
		probe(inList(`x-kubernetes-list-type: set`, `maxItems: 4`, ``, objectSetItems(`, `+noModify)),
			allow(`{"l": [{"a": "x"}]}`, `{"l": [{"a": "y"}]}`)),
	}},
	{row: "list set, atomic objects with non-strict ==", col: colEntries, want: "exact", probes: []matrixProbe{
		probe(inList(`x-kubernetes-list-type: set`, `maxItems: 4`, ``, objectSetItems(``)+`, `+noModify),
			allow(`{"l": [{"a": "x"}]}`, `{"l": [{"a": "y"}]}`), allow(`{"l": [{"__meta__": 1}]}`, `{"l": [{"__meta__": 2}]}`)),
	}},
	{row: "list set, atomic objects with non-strict ==", col: colCollection, want: "exact", probes: []matrixProbe{
		probe(inList(`x-kubernetes-list-type: set`, `maxItems: 4`, noModify, objectSetItems(``)),
			allow(`{"l": [{"a": null}]}`, `{"l": [{}]}`),
			deny(`{"l": [{"__meta__": 1}]}`, `{"l": [{"__meta__": 2}]}`),
			deny(`{"l": [{"s": ["a", "b"]}]}`, `{"l": [{"s": ["b", "a"]}]}`),
			deny(`{"l": [{"a": "x"}, {"a": "y"}]}`, `{"l": [{"a": "y"}, {"a": "x"}]}`)),
	}},
	{row: "list set, atomic objects with non-strict ==", col: colPresence, want: "exact", probes: []matrixProbe{
		probe(inList(`x-kubernetes-list-type: set`, `maxItems: 4`, `x-kubernetes-update: [NoSet, NoUnset]`, objectSetItems(``)),
			deny(`{}`, `{"l": []}`), deny(`{"l": [{"a": null}]}`, `{}`), allow(`{"l": [{"a": null}]}`, `{"l": [{}]}`)),
	}},
	{row: "list set, atomic objects with non-strict ==", col: colKeys, want: "exact", probes: []matrixProbe{
		probe(inList(`x-kubernetes-list-type: set`, `maxItems: 4`, noAdd, objectSetItems(``)),
			allow(`{"l": [{"a": null}]}`, `{"l": [{}]}`),
			allow(`{"l": [{"a": "x"}, {"__meta__": 1}]}`, `{"l": [{"__meta__": 1}]}`),
			deny(`{"l": [{"__meta__": 1}]}`, `{"l": [{"__meta__": 2}]}`),
			deny(`{"l": [{"s": ["a", "b"]}]}`, `{"l": [{"s": ["a", "b"]}, {"s": ["b", "a"]}]}`)),
		probe(inList(`x-kubernetes-list-type: set`, `maxItems: 4`, noRemove, objectSetItems(``)),
			allow(`{"l": [{"a": null}]}`, `{"l": [{}]}`),
			allow(`{"l": [{"__meta__": 1}]}`, `{"l": [{"__meta__": 2}, {"__meta__": 1}]}`),
			deny(`{"l": [{"__meta__": 1}]}`, `{"l": [{"__meta__": 2}]}`),
			deny(`{"l": [{"a": "x"}, {"a": "y"}]}`, `{"l": [{"a": "x"}]}`)),
	}},
}

// listMapCells are the cells of a list map keyed by k (named x-y where
// the row says so) of the given kind, with a and b two keys and same,
// when set, another spelling of a. Where pairing is not exact, every
// cell but presence adds the key a sent as a float, which the apiserver
// neither pairs nor reads (section 2.4).
func listMapCells(row, keyKind, a, b, same, pairing string) []matrixCell {
	k := "k"
	if strings.Contains(row, "x-y") {
		k = "x-y"
	}
	str := `type: string, maxLength: 4`
	schema := func(decl, itemDecl, vDecl string) string {
		items := `type: object, required: [` + k + `], properties: {` + k + `: {` + keyKind + `}, v: {` + str + vDecl + `}, w: {` + str + `}}` + itemDecl
		return inList(`x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [`+k+`]`, `maxItems: 4`, decl, items)
	}
	item := func(key, v string) string {
		if v == "" {
			return `{"` + k + `": ` + key + `}`
		}
		return `{"` + k + `": ` + key + `, "v": "` + v + `"}`
	}
	list := func(items ...string) string { return `{"l": [` + strings.Join(items, ", ") + `]}` }

	field := probe(schema("", "", `, `+noModify),
		deny(list(item(a, "x")), list(item(a, "y"))),
		allow(list(item(a, "x"), item(b, "y")), list(item(b, "y"), item(a, "x"))),
		allow(list(item(a, "x")), list(item(b, "y"))),
		allow(list(item(a, "x")), list(item(a, ""))))
	entries := probe(schema("", `, `+noModify, ""),
		deny(list(item(a, "x")), list(item(a, ""))),
		allow(list(item(a, "x"), item(b, "y")), list(item(b, "y"), item(a, "x"))),
		allow(list(item(a, "x")), list(item(a, "x"), item(b, ""))))
	collection := probe(schema(noModify, "", ""),
		deny(list(item(a, "x"), item(b, "y")), list(item(b, "y"), item(a, "x"))),
		deny(list(item(a, "x")), list(item(a, "y"))),
		allow(list(item(a, "x")), `{}`))
	noAddItem := probe(schema(noAdd, "", ""),
		deny(list(item(a, "")), list(item(a, ""), item(b, ""))),
		allow(list(item(a, "x"), item(b, "")), list(item(b, ""), item(a, "y"))))
	noRemoveItem := probe(schema(noRemove, "", ""),
		deny(list(item(a, ""), item(b, "")), list(item(b, ""))),
		allow(list(item(a, "x")), list(item(b, ""), item(a, "y"))))
	if pairing != "exact" {
		noAddItem.updates = append(noAddItem.updates, deviate(list(item(a, "")), list(item(a+".0", "")), false))
		noRemoveItem.updates = append(noRemoveItem.updates, deviate(list(item(a, "")), list(item(a+".0", "")), false))
		collection.updates = append(collection.updates, deviate(list(item(a, "")), list(item(a+".0", "")), false))
	}
	if same != "" {
		field.updates = append(field.updates, deny(list(item(a, "x")), list(item(same, "y"))), allow(list(item(a, "x")), list(item(same, "x"))))
		entries.updates = append(entries.updates, allow(list(item(a, "x")), list(item(same, "x"))))
		collection.updates = append(collection.updates, allow(list(item(a, "x")), list(item(same, "x"))))
		noAddItem.updates = append(noAddItem.updates, allow(list(item(a, "")), list(item(same, ""))))
		noRemoveItem.updates = append(noRemoveItem.updates, allow(list(item(a, "")), list(item(same, ""))))
	}
	if pairing != "exact" {
		field.updates = append(field.updates, deviate(list(item(a, "x")), list(item(a+".0", "y")), true))
		entries.updates = append(entries.updates, deviate(list(item(a, "x")), list(item(a+".0", "y")), true))
	}
	return []matrixCell{
		{row: row, col: colField, want: pairing, probes: []matrixProbe{field}},
		{row: row, col: colEntries, want: pairing, probes: []matrixProbe{entries}},
		{row: row, col: colCollection, want: pairing, probes: []matrixProbe{collection}},
		{row: row, col: colPresence, want: "exact", probes: []matrixProbe{
			probe(schema(`x-kubernetes-update: [NoSet, NoUnset]`, "", ""),
				deny(`{}`, `{"l": []}`), deny(list(item(a, "")), `{}`), allow(list(item(a, "")), `{"l": []}`)),
		}},
		{row: row, col: colKeys, want: pairing, probes: []matrixProbe{noAddItem, noRemoveItem}},
	}
}

// formattedKeys are list maps keyed by a date-time, a duration and bytes:
// pairing their items compares the keys as CEL reads them.
func formattedKeys(decl, itemDecl, vDecl string) []matrixProbe {
	var out []matrixProbe
	for _, f := range []string{"date-time", "duration", "byte"} {
		items := `type: object, required: [k], properties: {k: {type: string, maxLength: 64, format: ` + f + `}, v: {type: string, maxLength: 4` + vDecl + `}}` + itemDecl
		out = append(out, probe(inList(`x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [k]`, `maxItems: 4`, decl, items)))
	}
	return out
}

var formattedKeyCells = []matrixCell{
	// The apiserver pairs the items by their keys as stored: rules on
	// the items compare no key.
	{row: "list map, formatted keys", col: colField, want: "exact", probes: func() []matrixProbe {
		ps := formattedKeys("", "", `, `+noModify)
		keys := [][2]string{{`"2024-05-01T10:00:00Z"`, `"2024-05-01T10:00:00.000Z"`}, {`"1h"`, `"60m"`}, {`"YQ=="`, `"YR=="`}}
		for i := range ps {
			a, b := keys[i][0], keys[i][1]
			ps[i].updates = []matrixUpdate{
				deny(`{"l": [{"k": `+a+`, "v": "x"}]}`, `{"l": [{"k": `+a+`, "v": "y"}]}`),
				allow(`{"l": [{"k": `+a+`, "v": "x"}]}`, `{"l": [{"k": `+b+`, "v": "y"}]}`),
				allow(`{"l": [{"k": `+a+`, "v": "x"}, {"k": `+b+`, "v": "y"}]}`, `{"l": [{"k": `+b+`, "v": "y"}, {"k": `+a+`, "v": "x"}]}`),
			}
		}
		ps[0].updates = append(ps[0].updates, allow(`{"l": [{"k": "2024-05-01t10:00:00z", "v": "x"}]}`, `{"l": [{"k": "2024-05-01t10:00:00z", "v": "x"}]}`))
		return ps
	}()},
	{row: "list map, formatted keys", col: colEntries, want: "refused: Format", probes: formattedKeys("", `, `+noModify, "")},
	{row: "list map, formatted keys", col: colCollection, want: "refused: Format", probes: formattedKeys(noModify, "", "")},
	{row: "list map, formatted keys", col: colPresence, want: "exact", probes: func() []matrixProbe {
		ps := formattedKeys(`x-kubernetes-update: [NoSet, NoUnset]`, "", "")
		for i := range ps {
			ps[i].updates = []matrixUpdate{deny(`{}`, `{"l": []}`), deny(`{"l": []}`, `{}`)}
		}
		ps[0].updates = append(ps[0].updates, allow(`{"l": [{"k": "2024-05-01t10:00:00z"}]}`, `{"l": [{"k": "2024-05-01t10:00:00z"}]}`))
		ps[2].updates = append(ps[2].updates, allow(`{"l": [{"k": "+/8="}]}`, `{"l": []}`))
		return ps
	}()},
	{row: "list map, formatted keys", col: colKeys, want: "refused: Format", probes: append(formattedKeys(noAdd, "", ""), formattedKeys(noRemove, "", "")...)},
}

// mapCells are the cells of a map (additionalProperties with a schema).
// The apiserver pairs the values of atomic maps by key too (section 7).
func mapCells(row, mapType string) []matrixCell {
	str := `type: string, maxLength: 4`
	schema := func(decl, values string) string {
		return `{type: object, properties: {m: {type: object, ` + mapType + `maxProperties: 4, ` + decl + `additionalProperties: {` + values + `}}}}`
	}
	return []matrixCell{
		{row: row, col: colField, want: "exact", probes: []matrixProbe{
			probe(schema("", `type: object, properties: {f: {`+str+`, `+noModify+`}, g: {`+str+`}}`),
				deny(mapOf(`{"k": {"f": "a"}}`), mapOf(`{"k": {"f": "b"}}`)),
				allow(mapOf(`{"k": {"f": "a"}}`), mapOf(`{"j": {"f": "b"}}`)),
				allow(mapOf(`{"k": {"f": "a"}}`), mapOf(`{"k": {"g": "b"}}`))),
		}},
		{row: row, col: colEntries, want: "exact", probes: []matrixProbe{
			probe(schema("", str+`, `+noModify),
				deny(mapOf(`{"k": "a"}`), mapOf(`{"k": "b"}`)),
				allow(mapOf(`{"k": "a"}`), mapOf(`{"j": "a"}`)),
				allow(mapOf(`{"k": "a"}`), `{}`)),
		}},
		{row: row, col: colCollection, want: "exact", probes: []matrixProbe{
			probe(schema(noModify+`, `, str),
				deny(mapOf(`{"k": "a"}`), mapOf(`{"k": "a", "j": "b"}`)),
				deny(mapOf(`{"k": "a"}`), mapOf(`{"j": "a"}`)),
				allow(mapOf(`{"k": "a", "j": "b"}`), mapOf(`{"j": "b", "k": "a"}`)),
				allow(mapOf(`{"k": "a"}`), `{}`)),
		}},
		{row: row, col: colPresence, want: "exact", probes: []matrixProbe{
			probe(schema(`x-kubernetes-update: [NoSet, NoUnset], `, str),
				deny(`{}`, mapOf(`{}`)), deny(mapOf(`{}`), `{}`), allow(mapOf(`{}`), mapOf(`{"k": "a"}`))),
		}},
		{row: row, col: colKeys, want: "exact", probes: []matrixProbe{
			probe(schema(noAdd+`, `, str),
				deny(mapOf(`{"k": "a"}`), mapOf(`{"k": "a", "j": "b"}`)), deny(`{}`, mapOf(`{"k": "a"}`)), allow(mapOf(`{"k": "a"}`), mapOf(`{"k": "b"}`))),
			probe(schema(noRemove+`, `, str),
				deny(mapOf(`{"k": "a", "j": "b"}`), mapOf(`{"j": "b"}`)), deny(mapOf(`{"k": "a"}`), `{}`), allow(mapOf(`{"k": "a"}`), mapOf(`{"k": "b", "j": "c"}`))),
		}},
	}
}

// Objects that keep unknown fields, and free-form maps: the apiserver's
// == compares unknown fields only where both sides have them.
var freeFormCells = []matrixCell{
	{row: "x-kubernetes-preserve-unknown-fields", col: colField, want: "refused: Inexact", probes: []matrixProbe{
		probe(inSpec(`type: object, x-kubernetes-preserve-unknown-fields: true, ` + noModify)),
	}},
	{row: "x-kubernetes-preserve-unknown-fields", col: colEntries, want: "refused: Inexact", probes: []matrixProbe{
		probe(inMap(`type: object, x-kubernetes-preserve-unknown-fields: true, ` + noModify)),
	}},
	{row: "x-kubernetes-preserve-unknown-fields", col: colPresence, want: "exact", probes: []matrixProbe{
		probe(inSpec(`type: object, x-kubernetes-preserve-unknown-fields: true, `+noSet),
			deny(`{"spec": {}}`, spec(`{}`)), allow(spec(`{"a": 1}`), spec(`{"b": 2}`))),
		probe(inSpec(`type: object, x-kubernetes-preserve-unknown-fields: true, `+noUnset),
			deny(spec(`{"a": 1}`), `{}`), allow(spec(`{"a": 1}`), spec(`{}`))),
	}},
	{row: "x-kubernetes-preserve-unknown-fields", col: colKeys, want: "error §9.2", probes: []matrixProbe{
		probe(inSpec(`type: object, x-kubernetes-preserve-unknown-fields: true, ` + noAdd)),
	}},
	{row: "additionalProperties: true", col: colCollection, want: "refused: Inexact", probes: []matrixProbe{
		probe(inSpec(`type: object, additionalProperties: true, ` + noModify)),
	}},
	{row: "additionalProperties: true", col: colPresence, want: "exact", probes: []matrixProbe{
		probe(inSpec(`type: object, additionalProperties: true, x-kubernetes-update: [NoSet, NoUnset]`),
			deny(`{"spec": {}}`, spec(`{}`)), deny(spec(`{"a": 1}`), `{"spec": {}}`), allow(spec(`{"a": 1}`), spec(`{"b": [2]}`))),
	}},
	// A free-form map has no additionalProperties schema: it is no
	// collection for 9.2.3.
	{row: "additionalProperties: true", col: colKeys, want: "error §9.2", probes: []matrixProbe{
		probe(inSpec(`type: object, additionalProperties: true, ` + noAdd)),
		probe(inSpec(`type: object, additionalProperties: true, ` + noRemove)),
	}},
}

// embedded is an embedded resource with the given declarations on its
// kind, its metadata.name, its metadata.labels and itself.
func embedded(kindDecl, nameDecl, labelsDecl, labelDecl, decl string) string {
	return `{type: object, x-kubernetes-embedded-resource: true, ` + decl + `properties: {apiVersion: {type: string, maxLength: 16}, kind: {type: string, maxLength: 16` + kindDecl + `},
  metadata: {type: object, properties: {name: {type: string, maxLength: 16` + nameDecl + `},
    labels: {type: object, maxProperties: 4` + labelsDecl + `, additionalProperties: {type: string, maxLength: 8` + labelDecl + `}}}}}}`
}

// The apiserver's CEL sees apiVersion, kind and metadata.name (and
// generateName) of an embedded resource, nothing else of its metadata.
var embeddedCells = []matrixCell{
	{row: "embedded resource: kind, apiVersion, metadata.name", col: colField, want: "exact", probes: []matrixProbe{
		probe(`{type: object, properties: {r: `+embedded(`, `+noModify, `, `+noModify, ``, ``, ``)+`}}`,
			deny(`{"r": {"kind": "A"}}`, `{"r": {"kind": "B"}}`),
			deny(`{"r": {"metadata": {"name": "a"}}}`, `{"r": {"metadata": {"name": "b"}}}`),
			allow(`{"r": {"kind": "A", "metadata": {"name": "a", "labels": {"x": "1"}}}}`, `{"r": {"kind": "A", "metadata": {"name": "a", "labels": {"x": "2"}}}}`),
			allow(`{"r": {"kind": "A", "metadata": {"name": "a"}}}`, `{"r": {}}`)),
	}},
	{row: "embedded resource: kind, apiVersion, metadata.name", col: colEntries, want: "refused: Inexact", probes: []matrixProbe{
		probe(`{type: object, properties: {m: {type: object, maxProperties: 4, additionalProperties: ` + embedded(``, ``, ``, ``, noModify+`, `) + `}}}`),
	}},
	{row: "embedded resource: kind, apiVersion, metadata.name", col: colCollection, want: "refused: Inexact", probes: []matrixProbe{
		probe(`{type: object, properties: {r: ` + embedded(``, ``, ``, ``, noModify+`, `) + `}}`),
	}},
	{row: "embedded resource: kind, apiVersion, metadata.name", col: colPresence, want: "exact", probes: []matrixProbe{
		probe(`{type: object, properties: {r: `+embedded(``, `, x-kubernetes-update: [NoSet, NoUnset]`, ``, ``, ``)+`}}`,
			deny(`{"r": {}}`, `{"r": {"metadata": {"name": "a"}}}`),
			deny(`{"r": {"metadata": {"name": "a"}}}`, `{}`),
			allow(`{"r": {"metadata": {"name": "a"}}}`, `{"r": {"metadata": {"name": "b"}}}`)),
	}},
	{row: "embedded resource: metadata.labels", col: colEntries, want: "refused: Inexact", probes: []matrixProbe{
		probe(`{type: object, properties: {r: ` + embedded(``, ``, ``, `, `+noModify, ``) + `}}`),
	}},
	{row: "embedded resource: metadata.labels", col: colCollection, want: "refused: Inexact", probes: []matrixProbe{
		probe(`{type: object, properties: {r: ` + embedded(``, ``, `, `+noModify, ``, ``) + `}}`),
	}},
	{row: "embedded resource: metadata.labels", col: colPresence, want: "refused: Inexact", probes: []matrixProbe{
		probe(`{type: object, properties: {r: ` + embedded(``, ``, `, `+noSet, ``, ``) + `}}`),
		probe(`{type: object, properties: {r: ` + embedded(``, ``, `, `+noUnset, ``, ``) + `}}`),
	}},
	{row: "embedded resource: metadata.labels", col: colKeys, want: "refused: Inexact", probes: []matrixProbe{
		probe(`{type: object, properties: {r: ` + embedded(``, ``, `, `+noAdd, ``, ``) + `}}`),
		probe(`{type: object, properties: {r: ` + embedded(``, ``, `, `+noRemove, ``, ``) + `}}`),
	}},
}

// junctor puts a declaration into each of allOf, anyOf, oneOf and not of
// an object holding f (a string) and m (a map).
func junctor(fDecl, mDecl, valuesDecl string) []matrixProbe {
	var out []matrixProbe
	for _, j := range []string{"allOf: [%s]", "anyOf: [%s]", "oneOf: [%s]", "not: %s"} {
		branch := `{properties: {f: {` + fDecl + `}, m: {` + mDecl + `additionalProperties: {` + valuesDecl + `}}}}`
		out = append(out, probe(`{type: object, properties: {f: {type: string}, m: {type: object, additionalProperties: {type: string}}}, `+
			fmt.Sprintf(j, branch)+`}`))
	}
	return out
}

// rootMetadata declares in the root's metadata.
func rootMetadata(decl string) string {
	return `{type: object, properties: {metadata: {type: object, ` + decl + `properties: {name: {type: string, maxLength: 16` + decl + `}}}}}`
}

// Declarations where no field is: junctor branches (1.1.5), the object
// metadata the apiserver owns (1.1.2).
var misplacedCells = []matrixCell{
	{row: "junctors (allOf, anyOf, oneOf, not)", col: colField, want: "error §1.1", probes: junctor(noModify, ``, `type: string`)},
	{row: "junctors (allOf, anyOf, oneOf, not)", col: colEntries, want: "error §1.1", probes: junctor(`type: string`, ``, noModify)},
	{row: "junctors (allOf, anyOf, oneOf, not)", col: colCollection, want: "error §1.1", probes: junctor(`type: string`, noModify+`, `, `type: string`)},
	{row: "junctors (allOf, anyOf, oneOf, not)", col: colPresence, want: "error §1.1", probes: append(junctor(noSet, ``, `type: string`), junctor(noUnset, ``, `type: string`)...)},
	{row: "junctors (allOf, anyOf, oneOf, not)", col: colKeys, want: "error §1.1", probes: append(junctor(`type: string`, noAdd+`, `, `type: string`), junctor(`type: string`, noRemove+`, `, `type: string`)...)},
	{row: "metadata of the root", col: colField, want: "error §1.1", probes: []matrixProbe{
		probe(`{type: object, properties: {metadata: {type: object, properties: {name: {type: string, maxLength: 16, ` + noModify + `}}}}}`),
	}},
	{row: "metadata of the root", col: colCollection, want: "error §1.1", probes: []matrixProbe{
		probe(`{type: object, properties: {metadata: {type: object, ` + noModify + `}}}`),
	}},
	{row: "metadata of the root", col: colPresence, want: "error §1.1", probes: []matrixProbe{
		probe(`{type: object, properties: {metadata: {type: object, properties: {name: {type: string, maxLength: 16, ` + noSet + `}}}}}`),
		probe(`{type: object, properties: {metadata: {type: object, properties: {name: {type: string, maxLength: 16, ` + noUnset + `}}}}}`),
	}},
}

// Property names: those the Kubernetes CEL escaping rewrites, those it
// leaves alone but cel.Unescape would change, and those it cannot
// express.
var nameCells = []matrixCell{
	{row: "property names needing escape (x-y, in, __meta__)", col: colField, want: "exact", probes: []matrixProbe{
		probe(`{type: object, properties: {spec: {type: object, properties: {x-y: {type: string, maxLength: 4, `+noModify+`}, in: {type: integer, `+noModify+`}, __meta__: {type: string, maxLength: 4, `+noModify+`}}}}}`,
			deny(`{"spec": {"x-y": "a"}}`, `{"spec": {"x-y": "b"}}`),
			deny(`{"spec": {"in": 1}}`, `{"spec": {"in": 2}}`),
			deny(`{"spec": {"__meta__": "a"}}`, `{"spec": {"__meta__": "b"}}`),
			allow(`{"spec": {"x-y": "a", "in": 1, "__meta__": "a"}}`, `{"spec": {}}`)),
		probe(`{type: object, properties: {spec: {type: object, `+noModify+`, properties: {x-y: {type: string, maxLength: 4}, x__dash__y: {type: string, maxLength: 4}, __meta__: {type: string, maxLength: 4}}}}}`,
			deny(`{"spec": {"x-y": "a"}}`, `{"spec": {"x__dash__y": "a"}}`),
			deny(`{"spec": {"__meta__": "a"}}`, `{"spec": {"__meta__": "b"}}`),
			deny(`{"spec": {}}`, `{"spec": {"__meta__": "b"}}`),
			allow(`{"spec": {"x-y": "a", "__meta__": "b"}}`, `{"spec": {"__meta__": "b", "x-y": "a"}}`)),
	}},
	{row: "property names needing escape (x-y, in, __meta__)", col: colPresence, want: "exact", probes: []matrixProbe{
		probe(`{type: object, properties: {spec: {type: object, properties: {x-y: {type: string, maxLength: 4, `+noSet+`}, in: {type: integer, `+noUnset+`}, __meta__: {type: string, maxLength: 4, `+noSet+`}}}}}`,
			deny(`{"spec": {}}`, `{"spec": {"x-y": "a"}}`),
			deny(`{"spec": {"in": 1}}`, `{}`),
			deny(`{"spec": {}}`, `{"spec": {"__meta__": "a"}}`),
			allow(`{"spec": {"x-y": "a", "__meta__": "a"}}`, `{"spec": {"in": 2}}`)),
	}},
	// The value rule sits on the field itself and names it as self.
	{row: "unescapable property names (1abc)", col: colField, want: "exact", probes: []matrixProbe{
		probe(`{type: object, properties: {spec: {type: object, properties: {1abc: {type: string, maxLength: 4, `+noModify+`}}}}}`,
			deny(`{"spec": {"1abc": "a"}}`, `{"spec": {"1abc": "b"}}`),
			allow(`{"spec": {"1abc": "a"}}`, `{"spec": {}}`),
			allow(`{}`, `{"spec": {"1abc": "b"}}`)),
	}},
	{row: "unescapable property names (1abc)", col: colPresence, want: "refused: UnescapableName", probes: []matrixProbe{
		probe(`{type: object, properties: {spec: {type: object, properties: {1abc: {type: string, maxLength: 4, ` + noSet + `}}}}}`),
		probe(`{type: object, properties: {spec: {type: object, properties: {1abc: {type: string, maxLength: 4, ` + noUnset + `}}}}}`),
	}},
}
