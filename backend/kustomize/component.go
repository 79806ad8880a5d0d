package kustomize

import (
	"errors"
	"fmt"
	"strings"

	"sigs.k8s.io/yaml"
)

// Header is the first line of every kustomization.yaml this package
// writes; mut2cel patch overwrites only files that start with it.
const Header = "# Written by mut2cel patch. Do not edit: change the declarations and run mut2cel patch again.\n"

// Translation is one CRD to patch: as published, and as translated.
type Translation struct {
	Name       string                 // metadata.name
	Base       map[string]interface{} // as published
	Translated map[string]interface{}
	// KubeVersion is the oldest Kubernetes version the rules of
	// Translated work on ("1.33", plan.Plan.KubeVersion); empty when
	// unknown.
	KubeVersion string
}

// Patches returns the JSON6902 operations that turn c.Base into
// c.Translated, version guards first; none when they are equal.
func (c Translation) Patches() []map[string]interface{} {
	ops := diffOps("", asPatched(c.Base, c.Translated), c.Translated)
	if len(ops) == 0 {
		return nil
	}
	var out []map[string]interface{}
	for _, o := range append(versionGuards(ops, c.Base), ops...) {
		out = append(out, o)
	}
	if v, ok := ops[len(ops)-1]["value"].(string); ok && strings.HasSuffix(v, "\n") {
		// kustomize trims the patch text before parsing it, so a block
		// scalar at its very end would lose its final newline (an
		// annotation-only patch, TestAnnotationOnlyPatch). A last test
		// that always holds keeps the value whole.
		out = append(out, map[string]interface{}{"op": "test", "path": "/apiVersion", "value": "apiextensions.k8s.io/v1"})
	}
	return out
}

// asPatched returns base as kustomize's JSON6902 patches see it where
// that matters to the diff to out: with a metadata.annotations map, which
// kustomize fills with its build annotations before every patch
// (TestKustomizeJSONPatch). So the component adds its annotations key by
// key even where base has none, and keeps those a later upstream release
// adds. Outside kustomize, an add into a missing map fails rather than
// being lost.
func asPatched(base, out map[string]interface{}) map[string]interface{} {
	meta, ok := base["metadata"].(map[string]interface{})
	outMeta, _ := out["metadata"].(map[string]interface{})
	if !ok || meta["annotations"] != nil || !isMap(outMeta["annotations"]) {
		return base
	}
	patched := make(map[string]interface{}, len(base))
	for k, v := range base {
		patched[k] = v
	}
	m := make(map[string]interface{}, len(meta)+1)
	for k, v := range meta {
		m[k] = v
	}
	m["annotations"] = map[string]interface{}{}
	patched["metadata"] = m
	return patched
}

// ErrNoPatches is Kustomization's error when no CRD needs a patch: the
// component would change nothing, and a build with it would pass for
// translated.
var ErrNoPatches = errors.New("no CRD needs a patch")

// Kustomization writes the Component that patches every CRD that needs
// it; ErrNoPatches when none does.
func Kustomization(crds []Translation) ([]byte, error) {
	patches := []interface{}{}
	for _, c := range crds {
		ops := c.Patches()
		if len(ops) == 0 {
			continue
		}
		text, err := yaml.Marshal(ops)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.Name, err)
		}
		patches = append(patches, map[string]interface{}{
			"target": map[string]interface{}{
				"group": "apiextensions.k8s.io", "version": "v1", "kind": "CustomResourceDefinition", "name": c.Name,
			},
			"patch": string(text),
		})
	}
	if len(patches) == 0 {
		return nil, ErrNoPatches
	}
	out, err := yaml.Marshal(map[string]interface{}{
		"apiVersion": "kustomize.config.k8s.io/v1alpha1",
		"kind":       "Component",
		"patches":    patches,
	})
	if err != nil {
		return nil, err
	}
	return []byte(Header + targetLine(crds) + strings.TrimPrefix(string(out), "\n")), nil
}

// targetLine states, as a comment, the oldest Kubernetes version the
// patched CRDs work on: the newest version any of their rules is made
// for, since an older apiserver rejects a rule that uses what it lacks
// (two-variable comprehensions, from 1.33). A comment, not a field:
// kustomize refuses a Component with keys it does not know.
func targetLine(crds []Translation) string {
	var newest string
	for _, c := range crds {
		if c.KubeVersion != "" && (newest == "" || olderVersion(newest, c.KubeVersion)) {
			newest = c.KubeVersion
		}
	}
	if newest == "" {
		return ""
	}
	return "# The patched CRDs need Kubernetes " + newest + " or newer: their rules are made for it.\n"
}

// olderVersion reports whether version a (MAJOR.MINOR) is older than b.
func olderVersion(a, b string) bool {
	var aMajor, aMinor, bMajor, bMinor int
	fmt.Sscanf(a, "%d.%d", &aMajor, &aMinor)
	fmt.Sscanf(b, "%d.%d", &bMajor, &bMinor)
	return aMajor < bMajor || aMajor == bMajor && aMinor < bMinor
}
