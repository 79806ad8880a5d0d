package translate_test

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/translate"
)

// The matrix of docs/semantics.md section 10: every kind of schema node
// against every constraint. Each cell of the table there has one entry
// here, named by its row and column, and TestMatrixDocumented keeps the
// two in step.

// The columns of the table, as its header spells them.
const (
	colField      = "NoModify, field"
	colEntries    = "NoModify, entries"
	colCollection = "NoModify, collection"
	colPresence   = "NoSet/NoUnset, field"
	colKeys       = "NoAddItem/NoRemoveItem"
)

var matrixColumns = []string{colField, colEntries, colCollection, colPresence, colKeys}

// matrixCell is one cell: its verdict kind as the table states it
// ("exact", "refused: Format", "deviation §8", "error §1.1") and the
// schemas that show it.
type matrixCell struct {
	row, col string
	want     string
	probes   []matrixProbe
}

// matrixProbe is a schema declaring the cell's constraint and, for exact
// and deviation cells, updates through it.
type matrixProbe struct {
	schema   string
	versions []translate.KubeVersion // nil: matrixVersions
	updates  []matrixUpdate
}

// matrixUpdate is an update and whether semantics.md denies it. deviates
// marks an update on which the apiserver, by a deviation the document
// states, decides the other way (or fails to evaluate a rule, which
// denies).
type matrixUpdate struct {
	old, new string
	deny     bool
	deviates bool
}

// matrixVersions are the targets of every probe: the default, whose CEL
// lacks two-variable comprehensions, and the newest, which has them.
var matrixVersions = []translate.KubeVersion{translate.DefaultKubeVersion, translate.MaxKubeVersion}

func allow(old, new string) matrixUpdate { return matrixUpdate{old: old, new: new} }
func deny(old, new string) matrixUpdate  { return matrixUpdate{old: old, new: new, deny: true} }

// deviate is an update semantics.md judges by deny and the apiserver
// judges the other way.
func deviate(old, new string, deny bool) matrixUpdate {
	return matrixUpdate{old: old, new: new, deny: deny, deviates: true}
}

func probe(schema string, updates ...matrixUpdate) matrixProbe {
	return matrixProbe{schema: schema, updates: updates}
}

// Declarations, for the schema templates below.
const (
	noModify = `x-kubernetes-update: [NoModify]`
	noSet    = `x-kubernetes-update: [NoSet]`
	noUnset  = `x-kubernetes-update: [NoUnset]`
	noAdd    = `x-kubernetes-update: [NoAddItem]`
	noRemove = `x-kubernetes-update: [NoRemoveItem]`
	asValues = `x-mut2cel-formats: CompareAsValues`
)

// their reason, error cells as declaration errors.
func TestMatrix(t *testing.T) {
	for _, c := range matrixCells {
		t.Run(c.row+"/"+c.col, func(t *testing.T) {
			if len(c.probes) == 0 {
				t.Fatal("no probe")
			}
			for _, p := range c.probes {
				switch kind, reason, _ := strings.Cut(c.want, ": "); kind {
				case "exact":
					runProbe(t, p, false)
				case "refused":
					refusedWith(t, p.schema, reason)
				default:
					if strings.HasPrefix(c.want, "deviation ") {
						runProbe(t, p, true)
					} else if strings.HasPrefix(c.want, "error ") {
						refusedWith(t, p.schema, "")
					} else {
						t.Fatalf("unknown verdict %q", c.want)
					}
				}
			}
		})
	}
}

// runProbe translates the probe's schema and checks its updates.
// Deviation cells must show their deviation on at least one update.
func runProbe(t *testing.T, p matrixProbe, deviation bool) {
	t.Helper()
	if len(p.updates) == 0 {
		t.Fatalf("schema %s: no update", p.schema)
	}
	checker := checkerFor(t, p.schema)
	versions := p.versions
	if versions == nil {
		versions = matrixVersions
	}
	validUpdates(t, p, versions[0])
	deviations := 0
	for _, v := range versions {
		s := translated(t, p.schema, v)
		for _, u := range p.updates {
			if !u.deviates {
				checkVerdict(t, checker, s, u.old, u.new, u.deny)
				continue
			}
			deviations++
			if deny, msg := celDenies(t, s, u.old, u.new); deny == u.deny {
				t.Errorf("%s: update %s -> %s: CEL denied=%v (%s), want the deviation", v, u.old, u.new, deny, msg)
			}
			if deny, msg := nativeDenies(t, checker, s, u.old, u.new); deny != u.deny {
				t.Errorf("%s: update %s -> %s: reference checker denied=%v (%s), want denied=%v", v, u.old, u.new, deny, msg, u.deny)
			}
		}
	}
	if deviation && deviations == 0 {
		t.Errorf("schema %s: a deviation cell without an update that shows it", p.schema)
	}
	if !deviation && deviations > 0 {
		t.Errorf("schema %s: an exact cell with a deviating update", p.schema)
	}
}

// validUpdates requires both objects of every update, in their stored
// form, to pass the apiserver's schema validation of the translated CRD:
// the document judges objects the schema accepts.
func validUpdates(t *testing.T, p matrixProbe, v translate.KubeVersion) {
	t.Helper()
	res, err := translate.Translate(crdWith(t, p.schema), translate.Options{KubeVersion: v})
	if err != nil {
		t.Fatalf("Translate: %v", err)
	}
	props := typedCRD(t, res.Translated).Spec.Versions[0].Schema.OpenAPIV3Schema
	s, err := kube.Structural(props)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range p.updates {
		for _, obj := range []string{u.old, u.new} {
			errs, err := kube.ValidateObject(props, s, kube.Store(s, objectOf(t, obj)))
			if err != nil || len(errs) > 0 {
				t.Errorf("object %s is invalid for %s: %v %v", obj, p.schema, err, errs)
			}
		}
	}
}

// refusedWith requires Translate to fail on schema with every problem
// naming reason; an empty reason asks for a declaration error.
func refusedWith(t *testing.T, schema, reason string) {
	t.Helper()
	_, err := translate.Translate(crdWith(t, schema), translate.Options{})
	var terr *translate.Error
	if !errors.As(err, &terr) || len(terr.Problems) == 0 {
		t.Fatalf("Translate(%s) = %v, want a problem with reason %q", schema, err, reason)
	}
	for _, p := range terr.Problems {
		if p.Reason != reason {
			t.Errorf("Translate(%s) = reason %q (%s), want %q", schema, p.Reason, p.Detail, reason)
		}
	}
}

// semanticsPath is docs/semantics.md, from the package directory.
const semanticsPath = "../docs/semantics.md"

// verdictKind reads the kind of a cell of the table: its text up to the
// explanation that may follow.
var verdictKind = regexp.MustCompile(`^(exact|refused: [A-Za-z]+|deviation §[0-9.]*[0-9]|error §[0-9.]*[0-9]|—)`)

// documentedMatrix reads the table of section 10 of semantics.md: row,
// column, verdict kind.
func documentedMatrix(t *testing.T) map[[2]string]string {
	t.Helper()
	data, err := os.ReadFile(semanticsPath)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## 10. ")
	if !ok {
		t.Fatalf("%s: no section 10", semanticsPath)
	}
	if next := strings.Index(section, "\n## "); next >= 0 {
		section = section[:next]
	}
	cells := map[[2]string]string{}
	var header []string
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "|") {
			header = nil
			continue
		}
		fields := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
		}
		switch {
		case header == nil:
			header = fields
			if fmt.Sprint(header[1:]) != fmt.Sprint(matrixColumns) {
				t.Fatalf("%s: matrix header %q, want the columns %q", semanticsPath, header, matrixColumns)
			}
		case strings.Trim(fields[0], "-: ") == "":
		default:
			if len(fields) != len(header) {
				t.Fatalf("%s: row %q has %d cells, want %d", semanticsPath, fields[0], len(fields), len(header))
			}
			for i, text := range fields[1:] {
				kind := verdictKind.FindString(text)
				if kind == "" {
					t.Errorf("%s: row %q, column %q: %q is no verdict", semanticsPath, fields[0], header[i+1], text)
				}
				key := [2]string{fields[0], header[i+1]}
				if _, dup := cells[key]; dup {
					t.Errorf("%s: row %q twice", semanticsPath, fields[0])
				}
				cells[key] = kind
			}
		}
	}
	if len(cells) == 0 {
		t.Fatalf("%s: no matrix in section 10", semanticsPath)
	}
	return cells
}

// TestMatrixDocumented fails when a cell of the table in semantics.md has
// no entry in matrixCells, an entry has no cell, or the two state
// different verdicts.
func TestMatrixDocumented(t *testing.T) {
	doc := documentedMatrix(t)
	tested := map[[2]string]bool{}
	for _, c := range matrixCells {
		key := [2]string{c.row, c.col}
		if tested[key] {
			t.Errorf("cell %q twice in matrixCells", key)
		}
		tested[key] = true
		kind, ok := doc[key]
		switch {
		case !ok:
			t.Errorf("cell %q, %q: tested (%s) but not in %s", c.row, c.col, c.want, semanticsPath)
		case kind == "—":
			t.Errorf("cell %q, %q: tested (%s) but not applicable in %s", c.row, c.col, c.want, semanticsPath)
		case kind != c.want:
			t.Errorf("cell %q, %q: %s says %q, the test %q", c.row, c.col, semanticsPath, kind, c.want)
		}
	}
	var untested [][2]string
	for key, kind := range doc {
		if kind != "—" && !tested[key] {
			untested = append(untested, key)
		}
	}
	sort.Slice(untested, func(i, j int) bool { return fmt.Sprint(untested[i]) < fmt.Sprint(untested[j]) })
	for _, key := range untested {
		t.Errorf("cell %q, %q: %s says %q, but no entry tests it", key[0], key[1], semanticsPath, doc[key])
	}
}
