package verifyrun

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/verify"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// TestVerifySummary pins the line of one version: the pairs judged, the
// share set aside, the disagreements and their groups, the constraints
// tested.
func TestVerifySummary(t *testing.T) {
	for _, c := range []struct {
		v    verify.VersionReport
		want string
	}{
		{verify.VersionReport{Pairs: 300}, "300 pairs, 300 judged, no disagreement"},
		{verify.VersionReport{Pairs: 300, Disagreements: 2, First: 7, IntAsFloat: 3, Invalid: 4,
			Groups:      []*verify.GroupReport{{Kind: verify.CauseMissed}, {Kind: verify.CauseDenied, Counterexample: &verify.Counterexample{}}},
			Constraints: []*verify.ConstraintReport{{Violating: 3}, {Violating: 0}}},
			"300 pairs, 296 judged (4 set aside, 1.3%), 2 disagreements, the first at pair 7, 3 judged otherwise because of an integer sent as a float, in 2 groups (1 with a counterexample; --counterexamples); 1 of 2 constraints untested"},
		{verify.VersionReport{Pairs: 10, Constraints: []*verify.ConstraintReport{{Violating: 3}}}, "10 pairs, 10 judged, no disagreement; 1 constraint, all tested"},
	} {
		if got := summary(&c.v); got != c.want {
			t.Errorf("summary(%+v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// TestReplayValue checks that the objects of a counterexample keep what
// a replay needs: a float with an integral value stays a float, a string
// that reads as a boolean stays a string, rules keep their && and <.
func TestReplayValue(t *testing.T) {
	doc := &Document{CRDs: []CRDResult{{CRD: "a && b < c", Versions: []VersionResult{{Causes: []CauseResult{{
		Counterexample: &CounterexampleResult{
			Old: ReplayValue{map[string]interface{}{"n": 1.0, "i": int64(1), "s": "true", "l": []interface{}{2.5, 1e21}}},
			New: ReplayValue{map[string]interface{}{}},
		},
	}}}}}}}
	for format, want := range map[string][]string{
		"json": {`"crd": "a && b < c"`, `"i": 1,`, `"n": 1.0,`, `"s": "true"`, `2.5,`, `1e+21`, `"new": {}`},
		"yaml": {`crd: a && b < c`, `i: 1` + "\n", `"n": 1.0`, `s: "true"`, `- 2.5`, `- 1e+21`, `new: {}`},
	} {
		var b bytes.Buffer
		if err := doc.Write(&b, format); err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("Write(%s) =\n%s\nwant it to contain %q", format, b.String(), w)
			}
		}
	}
}

// TestTotals pins the lines that end a run that found something.
func TestTotals(t *testing.T) {
	for _, c := range []struct {
		doc  Document
		want []string
	}{
		{Document{Pairs: 600}, nil},
		{Document{Pairs: 600, Disagreements: 2, Unexercised: 1}, []string{"2 disagreements in 600 pairs",
			"1 declaration was exercised by no pair, so its rules went unchecked"}},
		{Document{Pairs: 600, Unexercised: 3}, []string{"3 declarations were exercised by no pair, so their rules went unchecked"}},
		{Document{Pairs: 600, Untested: 1}, []string{"1 constraint was broken by no judged pair, so the rules that enforce it went unchecked"}},
		{Document{Pairs: 600, Untested: 2, SetAside: 80, TooManySetAside: 1}, []string{
			"2 constraints were broken by no judged pair, so the rules that enforce them went unchecked",
			"1 version set aside more than 5% of its pairs (80 of 600 in the run), so the run checked too little"}},
	} {
		if got := c.doc.Totals(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Totals(%+v) = %q, want %q", c.doc, got, c.want)
		}
	}
}

// TestYAMLReadsAsKubectl writes a counterexample whose keys and values
// YAML 1.1 reads as booleans and numbers when bare, and reads the YAML
// report back as kubectl does (sigs.k8s.io/yaml): every one is still the
// string it was. A property named on came back as the key true.
func TestYAMLReadsAsKubectl(t *testing.T) {
	old := map[string]interface{}{}
	for _, s := range []string{"on", "On", "ON", "off", "y", "Y", "yes", "n", "N", "no", "NO", "true", "False", "1:20", "null", "~", "0x1F", "1e3", ".inf", "plain"} {
		old[s] = s
	}
	doc := &Document{CRDs: []CRDResult{{Versions: []VersionResult{{Causes: []CauseResult{{
		Counterexample: &CounterexampleResult{Old: ReplayValue{old}, New: ReplayValue{map[string]interface{}{}}},
	}}}}}}}
	var b bytes.Buffer
	if err := doc.Write(&b, "yaml"); err != nil {
		t.Fatal(err)
	}
	var back struct {
		CRDs []struct {
			Versions []struct {
				Causes []struct {
					Counterexample struct {
						Old map[string]interface{} `json:"old"`
					} `json:"counterexample"`
				} `json:"causes"`
			} `json:"versions"`
		} `json:"crds"`
	}
	if err := sigsyaml.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("sigs.k8s.io/yaml cannot read the report: %v\n%s", err, b.String())
	}
	if got := back.CRDs[0].Versions[0].Causes[0].Counterexample.Old; !reflect.DeepEqual(got, old) {
		t.Errorf("the YAML report, read as kubectl reads it, has old =\n%v\nwant\n%v\nreport:\n%s", got, old, b.String())
	}
}

// TestUncheckedLinesBounded checks that the text report names at most
// maxUncheckedLines declarations and constraints left unchecked, then
// counts the rest, however many fields are declared: with 30 declarations
// exercised by no pair, 20 lines name them and one counts the other 10.
func TestUncheckedLinesBounded(t *testing.T) {
	v := &verify.VersionReport{Version: "v1", Pairs: 10}
	for i := range 30 {
		d := reference.Declaration{Path: fmt.Sprintf(".spec.f%02d", i), Extension: "x-kubernetes-mutability", Value: "Immutable"}
		v.Declarations = append(v.Declarations, &verify.DeclarationReport{Declaration: d})
		v.Constraints = append(v.Constraints, &verify.ConstraintReport{Constraint: reference.Constraint{Declaration: d, Name: "NoModify"}})
	}
	var lines []string
	writeFindings(v, func(format string, args ...interface{}) { lines = append(lines, fmt.Sprintf(format, args...)) })
	if len(lines) != maxUncheckedLines+1 {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), maxUncheckedLines+1, strings.Join(lines, "\n"))
	}
	if !strings.Contains(lines[0], ".spec.f00") || !strings.Contains(lines[maxUncheckedLines-1], ".spec.f19") {
		t.Errorf("the lines do not name the first 20 declarations in order:\n%s", strings.Join(lines, "\n"))
	}
	if want := "and 10 more declarations or constraints left unchecked, as above; -o json lists every one"; lines[maxUncheckedLines] != want {
		t.Errorf("last line %q, want %q", lines[maxUncheckedLines], want)
	}
}
