package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/mut2cel/mut2cel/manifest"
	"github.com/mut2cel/mut2cel/testkit/controllergen"
	"github.com/mut2cel/mut2cel/testkit/golden"
	"github.com/mut2cel/mut2cel/testkit/testgc"
)

// TestMain lets the test binary act as the mut2cel command and as
// helpers for the scripts: kustomize-build runs kustomize's own build
// in-process, same-objects compares manifests by decoded value, replace
// edits a file, mode prints a file's permission bits, controller-gen
// writes the CRDs of Go packages as controller-gen does.
func TestMain(m *testing.M) {
	// The tests pin the default --kube-version: a developer's own
	// $MUT2CEL_KUBE_VERSION must not move it.
	os.Unsetenv(kubeVersionEnv)
	// For the tests, and for the scripts' commands, which run this
	// binary again.
	testgc.Set()
	testscript.Main(m, map[string]func(){
		"mut2cel":         func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"kustomize-build": kustomizeBuild,
		"same-objects":    sameObjects,
		"replace":         replace,
		"mode":            mode,
		"controller-gen":  controllerGen,
	})
}

// TestScripts runs the real binary on the txtar scripts in
// testdata/script: files in place, idempotence, --check, --diff, patch
// with a kustomize build, and error messages. go test -update rewrites
// the files the scripts compare with cmp.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *golden.Update,
		RequireExplicitExec: true,
		Condition:           condition,
		Setup:               goSetup(t),
	})
}

// goSetup lets scripts load Go packages, as --markers does: $MODROOT is
// the module's root, and the go command finds its caches and the module
// cache of the test's environment without the network.
func goSetup(t *testing.T) func(*testscript.Env) error {
	out, err := exec.Command("go", "env", "-json", "GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	var vars map[string]string
	if err := json.Unmarshal(out, &vars); err != nil {
		t.Fatalf("go env: %v", err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return func(env *testscript.Env) error {
		for k, v := range vars {
			env.Setenv(k, v)
		}
		env.Setenv("GOPROXY", "off")
		env.Setenv("GOTOOLCHAIN", "local")
		env.Setenv("MODROOT", root)
		return nil
	}
}

// controllerGen writes the CRDs of the Go packages PATTERN... into DIR.
func controllerGen() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: controller-gen DIR PATTERN...")
		os.Exit(2)
	}
	if err := controllergen.Generate(os.Args[1], os.Args[2:]...); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// condition adds [root] to the scripts' conditions: root may write any
// file, whatever its permission bits.
func condition(cond string) (bool, error) {
	switch cond {
	case "root":
		return os.Geteuid() == 0, nil
	case "server":
		// Built with the server tag (verifyserver.go).
		return startServer != nil, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// mode prints the permission bits of a file in octal, as 0644.
func mode() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: mode FILE")
		os.Exit(2)
	}
	info, err := os.Stat(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%#o\n", info.Mode().Perm())
}

// replace edits a file as a user would: it replaces the first occurrence
// of OLD by NEW, where \n in either stands for a newline.
func replace() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: replace FILE OLD NEW")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	unescape := func(s string) string { return strings.ReplaceAll(s, `\n`, "\n") }
	old, new := unescape(os.Args[2]), unescape(os.Args[3])
	if !strings.Contains(string(data), old) {
		fmt.Fprintf(os.Stderr, "%s does not contain %q\n", os.Args[1], old)
		os.Exit(1)
	}
	out := strings.Replace(string(data), old, new, 1)
	if err := os.WriteFile(os.Args[1], []byte(out), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// kustomizeBuild prints the objects kustomize builds from a directory.
func kustomizeBuild() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: kustomize-build DIR")
		os.Exit(2)
	}
	rm, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out, err := rm.AsYaml()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Stdout.Write(out)
}

// sameObjects exits 0 when two manifest files hold the same objects in the
// same order, compared as decoded JSON values, and says what differs
// otherwise.
func sameObjects() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: same-objects A B")
		os.Exit(2)
	}
	a, b := objects(os.Args[1]), objects(os.Args[2])
	if len(a) != len(b) {
		fmt.Fprintf(os.Stderr, "%s has %d objects, %s has %d\n", os.Args[1], len(a), os.Args[2], len(b))
		os.Exit(1)
	}
	for i := range a {
		if !reflect.DeepEqual(a[i], b[i]) {
			fmt.Fprintf(os.Stderr, "object %d differs:\n%v\n%v\n", i+1, a[i], b[i])
			os.Exit(1)
		}
	}
}

func objects(path string) []interface{} {
	data, err := os.ReadFile(path)
	if err == nil {
		var f *manifest.File
		if f, err = manifest.Parse(path, data); err == nil {
			var out []interface{}
			for _, d := range f.Docs {
				if v := d.Value(); v != nil {
					j, _ := json.Marshal(v)
					var norm interface{}
					_ = json.Unmarshal(j, &norm)
					out = append(out, norm)
				}
			}
			return out
		}
	}
	fmt.Fprintln(os.Stderr, err)
	os.Exit(2)
	return nil
}
