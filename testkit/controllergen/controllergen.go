// Package controllergen runs controller-gen's CRD generator in process, for
// tests that need what controller-gen writes: the example's golden files
// and the command's scripts. It is controller-tools' own generator
// (sigs.k8s.io/controller-tools/pkg/crd, the version in go.mod), run as
//
//	controller-gen crd:omitToolVersion=true paths=PATTERNS output:crd:dir=DIR
//
// The tool version annotation is left out because a generator built
// inside this module reports the module's version, not controller-gen's.
package controllergen

import (
	"bytes"
	"fmt"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/genall"
)

// Generate writes the CRDs of the Go packages that patterns name
// (relative to the working directory) into dir, one file per CRD named
// GROUP_PLURAL.yaml, as controller-gen does.
func Generate(dir string, patterns ...string) error {
	omit := true
	var gen genall.Generator = crd.Generator{OmitToolVersion: &omit}
	rt, err := genall.Generators{&gen}.ForRoots(patterns...)
	if err != nil {
		return err
	}
	var errs bytes.Buffer
	rt.OutputRules = genall.OutputRules{Default: genall.OutputToDirectory(dir)}
	rt.ErrorWriter = &errs
	if rt.Run() {
		return fmt.Errorf("controller-gen %s: %s", strings.Join(patterns, " "), errs.String())
	}
	return nil
}
