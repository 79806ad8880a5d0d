package kubebuilder

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	v1 "github.com/mut2cel/mut2cel/examples/kubebuilder/api/v1"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/verify/declread"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// The unions of api/v1 as validation-gen's generated code checks them:
// its functions in k8s.io/apimachinery/pkg/api/validate, with the
// extractors it writes for the members' Go types (!= "" for a string,
// len() > 0 for a slice or map, != 0 for a number, the bool itself).
var (
	triggerUnion = validate.NewDiscriminatedUnionMembership("trigger",
		validate.NewDiscriminatedUnionMember("cron", "Schedule"),
		validate.NewDiscriminatedUnionMember("events", "Events"))
	keepUnion       = validate.NewUnionMembership(validate.NewUnionMember("keepLast"), validate.NewUnionMember("keepDays"))
	labelsUnion     = validate.NewUnionMembership(validate.NewUnionMember("labels"), validate.NewUnionMember("inherit"))
	dataSourceUnion = validate.NewDiscriminatedUnionMembership("type",
		validate.NewDiscriminatedUnionMember("snapshot", "Snapshot"),
		validate.NewDiscriminatedUnionMember("imageURL", "Image"))
)

// validationGen validates the unions of a created VolumeSpec as
// validation-gen's code would.
func validationGen(spec *v1.VolumeSpec) field.ErrorList {
	ctx, op := context.Background(), operation.Operation{Type: operation.Create}
	var errs field.ErrorList
	if s := spec.Snapshots; s != nil {
		at := field.NewPath("spec", "snapshots")
		errs = append(errs, validate.DiscriminatedUnion(ctx, op, at, s, nil, triggerUnion,
			func(s *v1.Snapshots) string { return s.Trigger },
			func(s *v1.Snapshots) bool { return s.Cron != "" },
			func(s *v1.Snapshots) bool { return len(s.Events) > 0 })...)
		errs = append(errs, validate.Union(ctx, op, at, s, nil, keepUnion,
			func(s *v1.Snapshots) bool { return s.KeepLast != 0 },
			func(s *v1.Snapshots) bool { return s.KeepDays != 0 })...)
		errs = append(errs, validate.ZeroOrOneOfUnion(ctx, op, at, s, nil, labelsUnion,
			func(s *v1.Snapshots) bool { return len(s.Labels) > 0 },
			func(s *v1.Snapshots) bool { return s.Inherit })...)
	}
	if d := spec.DataSource; d != nil {
		errs = append(errs, validate.DiscriminatedUnion(ctx, op, field.NewPath("spec", "dataSource"), d, nil, dataSourceUnion,
			func(d *v1.DataSource) string { return d.Type },
			func(d *v1.DataSource) bool { return d.Snapshot != "" },
			func(d *v1.DataSource) bool { return d.ImageURL != "" })...)
	}
	return errs
}

// TestValidationGenAgrees creates Volumes whose unions have members of Go
// value types, in every combination of absent, null, zero and other
// values (4,410 objects), and holds mut2cel's verdicts to validation-gen's
// own: the rules mut2cel wrote into config/crd/bases, run by the
// apiserver's CEL validator, and the reference checker must refuse exactly
// the objects validation-gen's functions refuse, at the same fields.
func TestValidationGenAgrees(t *testing.T) {
	rules, checker := judges(t)
	objects := append(snapshotsObjects(), dataSourceObjects()...)
	invalid := 0
	for _, spec := range objects {
		raw := map[string]interface{}{"spec": spec}
		data, err := json.Marshal(spec)
		if err != nil {
			t.Fatal(err)
		}
		var typed v1.VolumeSpec
		if err := json.Unmarshal(data, &typed); err != nil {
			t.Fatal(err)
		}
		want := errorPaths(validationGen(&typed))
		stored := kube.Store(rules.structural, raw)
		got := errorPaths(rules.v.Validate(stored, nil))
		var ref []string
		for _, v := range checker.CheckCreate(stored) {
			ref = append(ref, v.Path)
		}
		ref = compactSorted(ref)
		if !slices.Equal(got, want) || !slices.Equal(ref, want) {
			t.Errorf("spec %s:\nvalidation-gen refuses %v\nCRD rules refuse      %v\nreference refuses     %v", data, want, got, ref)
		}
		if len(want) > 0 {
			invalid++
		}
	}
	t.Logf("%d objects, %d refused by validation-gen", len(objects), invalid)
	if invalid == 0 || invalid == len(objects) {
		t.Errorf("%d of %d objects refused: the objects do not tell the verdicts apart", invalid, len(objects))
	}
}

// ruleJudge is the schema of v1 in config/crd/bases and its rules.
type ruleJudge struct {
	structural *schema.Structural
	v          *kube.RuleValidator
}

// judges reads the CRD mut2cel wrote for api/v1: its rules, and the
// reference checker of its declarations.
func judges(t *testing.T) (ruleJudge, *reference.Checker) {
	t.Helper()
	data, err := os.ReadFile("config/crd/bases/storage.example.com_volumes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]interface{}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	c, err := crd.Read(doc)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := c.Version("v1")
	s, err := v.Structural()
	if err != nil {
		t.Fatal(err)
	}
	declared, err := declread.CRD(doc, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	dc, err := crd.Read(declared)
	if err != nil {
		t.Fatal(err)
	}
	dv, _ := dc.Version("v1")
	checker, err := reference.NewChecker(dv.Raw)
	if err != nil {
		t.Fatal(err)
	}
	return ruleJudge{structural: s, v: kube.NewRuleValidator(s)}, checker
}

// absent leaves a property out of an object.
const absent = "<absent>"

// combinations lists every object with one of values for each property,
// in order: the first property varies slowest.
func combinations(props []string, values [][]interface{}) []map[string]interface{} {
	out := []map[string]interface{}{{}}
	for i, p := range props {
		var next []map[string]interface{}
		for _, o := range out {
			for _, v := range values[i] {
				c := map[string]interface{}{}
				for k, x := range o {
					c[k] = x
				}
				if v != absent {
					c[p] = v
				}
				next = append(next, c)
			}
		}
		out = next
	}
	return out
}

// snapshotsObjects are specs whose snapshots take each value: absent,
// null, the zero of the member's type, and a value that is set.
func snapshotsObjects() []map[string]interface{} {
	props := []string{"trigger", "cron", "events", "keepLast", "keepDays", "labels", "inherit"}
	values := [][]interface{}{
		{absent, nil, "", "Schedule", "Events", "Other"},
		{absent, "", "0 * * * *"},
		{absent, []interface{}{}, []interface{}{"created"}},
		{absent, int64(0), int64(3)},
		{absent, nil, int64(0), int64(7)},
		{absent, map[string]interface{}{}, map[string]interface{}{"team": "a"}},
		{absent, false, true},
	}
	var out []map[string]interface{}
	for _, s := range combinations(props, values) {
		out = append(out, map[string]interface{}{"class": "fast", "snapshots": s})
	}
	return out
}

// dataSourceObjects are specs whose dataSource, whose type is required,
// takes each value.
func dataSourceObjects() []map[string]interface{} {
	props := []string{"type", "snapshot", "imageURL"}
	values := [][]interface{}{
		{"", "Snapshot", "Image", "Other"},
		{absent, nil, "", "s1"},
		{absent, "", "registry.example.com/i"},
	}
	var out []map[string]interface{}
	for _, d := range combinations(props, values) {
		out = append(out, map[string]interface{}{"class": "fast", "dataSource": d})
	}
	return out
}

// errorPaths are the fields of errs, sorted, each once.
func errorPaths(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Field)
	}
	return compactSorted(out)
}

func compactSorted(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}
