package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// raceCRD has two fields and no declaration; declaring each is one
// run's change.
const raceCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              a: {type: string, maxLength: 63}
              b: {type: string, maxLength: 63}
`

// TestWriteRace runs two translate -w at once on one file, many times,
// each declaring another field. Either both changes are in the file (one
// run read it after the other wrote it), or one run failed with exit 2
// naming the file and the file holds exactly the other run's result. A
// run that exits 0 while its change is lost is what this guards against:
// it happened about one time in six when the check that the file had not
// changed came before the rename rather than with it.
func TestWriteRace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "crd.yaml")
	var decls [2]string
	for i, field := range []string{"a", "b"} {
		decls[i] = filepath.Join(dir, field+".decl.yaml")
		writeFile(t, decls[i], fmt.Sprintf("apiVersion: mut2cel.io/v1alpha1\nkind: Declarations\ncrd: widgets.example.com\nfields:\n  .spec.%s: {x-kubernetes-mutability: Immutable}\n", field))
	}
	translated := func(in string, decls ...string) string {
		t.Helper()
		writeFile(t, path, in)
		for _, d := range decls {
			checkExit(t, []string{"translate", "-w", "--declarations", d, path}, exitOK)
		}
		out, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	only := [2]string{translated(raceCRD, decls[0]), translated(raceCRD, decls[1])}
	both := []string{translated(raceCRD, decls[0], decls[1]), translated(raceCRD, decls[1], decls[0])}
	counts := map[string]int{}
	// The race was lost about one time in six: -short's 40 rounds miss
	// it with odds under one in a thousand, the full suite's 200 under
	// one in 10^15.
	rounds := 200
	if testing.Short() {
		rounds = 40
	}
	for i := 0; i < rounds; i++ {
		writeFile(t, path, raceCRD)
		var codes [2]int
		var stderr [2]strings.Builder
		var wg sync.WaitGroup
		start := make(chan struct{})
		for j := range decls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				if j == 1 {
					// Now and then late enough to read what the
					// first run wrote.
					time.Sleep(time.Duration(i%8) * time.Millisecond)
				}
				codes[j] = run([]string{"translate", "-w", "--declarations", decls[j], path}, nil, io.Discard, &stderr[j])
			}()
		}
		close(start)
		wg.Wait()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got := string(data)
		switch {
		case codes == [2]int{exitOK, exitOK}:
			counts["both written"]++
			if got != both[0] && got != both[1] {
				t.Fatalf("trial %d: both runs exited 0, but the file holds the change of only one of them (or neither):\n%s", i, got)
			}
		case codes[0] == exitOK && codes[1] == exitError, codes[0] == exitError && codes[1] == exitOK:
			counts["one failed"]++
			ok, failed := 0, 1
			if codes[0] == exitError {
				ok, failed = 1, 0
			}
			if got != only[ok] {
				t.Fatalf("trial %d: run %d failed and run %d exited 0, but the file is not run %d's result:\n%s", i, failed, ok, ok, got)
			}
			if !strings.HasPrefix(stderr[failed].String(), path+": ") {
				t.Fatalf("trial %d: the failed run does not name the file: %s", i, stderr[failed].String())
			}
		default:
			t.Fatalf("trial %d: exit codes %v, want 0 and 0, or 0 and 2; stderr:\n%s\n%s", i, codes, stderr[0].String(), stderr[1].String())
		}
	}
	t.Logf("%d trials: %v", rounds, counts)
}
