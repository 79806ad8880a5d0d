package translate_test

import (
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/translate"
)

const annKubeVersion = decl.AnnotationKubeVersion

// targetSet is a declarations file document that only says the target.
func targetSet(version, file string, line int) decl.Set {
	return decl.Set{CRD: "widgets.example.com", KubeVersion: decl.Named{Name: version, Source: decl.Source{File: file, Line: line}}}
}

// TestTargetIsRecorded: a CRD translated for another version than the
// default records it, and a later run without a version makes the same
// rules for it; one for the default records nothing.
func TestTargetIsRecorded(t *testing.T) {
	v133 := translate.KubeVersion{Major: 1, Minor: 33}
	res := rewriteWith(t, docOf(t, rewriteCRD), translate.Options{KubeVersion: v133})
	if got := annotation(res.Translated, annKubeVersion); got != "1.33" {
		t.Fatalf("annotation %s = %q, want 1.33", annKubeVersion, got)
	}
	again := rewrite(t, res.Translated)
	if again.Changed() || len(again.Warnings) > 0 || translate.KubeVersion(again.Plan.KubeVersion) != v133 {
		t.Errorf("Translate(translated for 1.33) = %d edits, warnings %v, target %s; want no edit, no warning, 1.33", len(again.Edits), again.Warnings, again.Plan.KubeVersion)
	}
	if got, err := translate.Target(res.Translated, translate.Options{}); err != nil || got != v133 {
		t.Errorf("Target(translated for 1.33) = %s, %v; want 1.33", got, err)
	}
	back := rewriteWith(t, res.Translated, translate.Options{KubeVersion: translate.DefaultKubeVersion})
	if _, ok := back.Translated["metadata"].(map[string]interface{})["annotations"].(map[string]interface{})[annKubeVersion]; ok {
		t.Errorf("translated again for the default: the annotation %s stays", annKubeVersion)
	}
	if len(back.Warnings) != 1 || !strings.Contains(back.Warnings[0].Detail, "made for Kubernetes 1.31, as the options of the run ask, not for 1.33 as an earlier run recorded here") {
		t.Errorf("translated again for the default: warnings %v, want one saying the annotation's 1.33 is overridden", back.Warnings)
	}
	plain := rewrite(t, docOf(t, rewriteCRD))
	if got := annotation(plain.Translated, annKubeVersion); got != "" {
		t.Errorf("translated for the default: annotation %s = %q, want none", annKubeVersion, got)
	}
}

// TestTargetPrecedence: options, then declarations files, then the
// record, then the fallback.
func TestTargetPrecedence(t *testing.T) {
	recorded := docOf(t, rewriteCRD)
	setAnnotation(recorded, annKubeVersion, "1.32")
	v := func(minor int) translate.KubeVersion { return translate.KubeVersion{Major: 1, Minor: minor} }
	for _, c := range []struct {
		name string
		doc  map[string]interface{}
		opts translate.Options
		want translate.KubeVersion
	}{
		{"default", docOf(t, rewriteCRD), translate.Options{}, translate.DefaultKubeVersion},
		{"fallback", docOf(t, rewriteCRD), translate.Options{FallbackKubeVersion: v(30)}, v(30)},
		{"record over fallback", recorded, translate.Options{FallbackKubeVersion: v(30)}, v(32)},
		{"file over record", recorded, translate.Options{Declarations: []decl.Set{targetSet("1.33", "a.yaml", 3)}}, v(33)},
		{"options over file", recorded, translate.Options{KubeVersion: v(34), Declarations: []decl.Set{targetSet("1.33", "a.yaml", 3)}}, v(34)},
		{"a file for another CRD", docOf(t, rewriteCRD), translate.Options{Declarations: []decl.Set{{CRD: "other.example.com", KubeVersion: decl.Named{Name: "1.33"}}}}, translate.DefaultKubeVersion},
	} {
		got, err := translate.Target(c.doc, c.opts)
		if err != nil || got != c.want {
			t.Errorf("%s: Target = %s, %v; want %s", c.name, got, err, c.want)
		}
		res, err := translate.Translate(c.doc, c.opts)
		if err != nil || translate.KubeVersion(res.Plan.KubeVersion) != c.want {
			t.Errorf("%s: Translate: plan for %v, %v; want %s", c.name, res, err, c.want)
		}
	}
}

func TestTargetProblems(t *testing.T) {
	bad := docOf(t, rewriteCRD)
	setAnnotation(bad, annKubeVersion, "newest")
	misspelt := docOf(t, rewriteCRD)
	setAnnotation(misspelt, "mut2cel.io/kube-versoin", "1.33")
	for _, c := range []struct {
		name string
		doc  map[string]interface{}
		sets []decl.Set
		want string
	}{
		{"two files disagree", docOf(t, rewriteCRD), []decl.Set{targetSet("1.33", "a.yaml", 3), targetSet("1.32", "b.yaml", 4)},
			"b.yaml:4: Invalid value: kubeVersion: 1.32, but a.yaml:3 says 1.33 for CRD widgets.example.com: keep one of the two"},
		{"unsupported in a file", docOf(t, rewriteCRD), []decl.Set{targetSet("1.12", "a.yaml", 3)}, "a.yaml:3: Invalid value: kubeVersion: Kubernetes version 1.12 is not supported"},
		{"bad record", bad, nil, `metadata.annotations[mut2cel.io/kube-version]: Invalid value: "newest": want the Kubernetes version`},
		{"misspelt record", misspelt, nil, "mut2cel.io/kube-versoin"},
	} {
		_, err := translate.Translate(c.doc, translate.Options{Declarations: c.sets})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Translate = %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// TestTargetRecordGoesWithDeclarations: without declarations the record
// goes with the other annotations, and the published form never has it.
func TestTargetRecordGoesWithDeclarations(t *testing.T) {
	res := rewriteWith(t, docOf(t, rewriteCRD), translate.Options{KubeVersion: translate.KubeVersion{Major: 1, Minor: 33}})
	if _, ok := res.Base["metadata"].(map[string]interface{})["annotations"]; ok {
		t.Errorf("Base has annotations %v, want none", res.Base["metadata"])
	}
	doc := roundTrip(t, res.Translated)
	annotations := doc["metadata"].(map[string]interface{})["annotations"].(map[string]interface{})
	delete(annotations, decl.AnnotationDeclarations)
	// The inline declarations went into the annotation: none is left.
	again := rewrite(t, doc)
	if _, ok := again.Translated["metadata"].(map[string]interface{})["annotations"]; ok {
		t.Errorf("translated without declarations: annotations %v, want none", again.Translated["metadata"])
	}
}
