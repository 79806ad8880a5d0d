package main

import (
	"bytes"
	"io"
	"testing"
	"time"
)

// TestTranslateProgress checks that translate reports its progress over
// several inputs on a terminal, and only there.
func TestTranslateProgress(t *testing.T) {
	savedInterval, savedIsTerminal := progressInterval, isTerminal
	defer func() { progressInterval, isTerminal = savedInterval, savedIsTerminal }()
	progressInterval = 0
	args := []string{"translate", "testdata/crd.yaml", "testdata/crd.json", "testdata/configmap.yaml"}
	for _, terminal := range []bool{true, false} {
		isTerminal = func(io.Writer) bool { return terminal }
		var stdout, stderr bytes.Buffer
		if code := runWith(fakeTranslate, args, nil, &stdout, &stderr); code != exitOK {
			t.Fatalf("run(%q) = %d; stderr:\n%s", args, code, stderr.String())
		}
		want := ""
		if terminal {
			want = "mut2cel translate: 1/3 inputs\nmut2cel translate: 2/3 inputs\n"
		}
		if got := stderr.String(); got != want {
			t.Errorf("run(%q) with a terminal %v: stderr = %q, want %q", args, terminal, got, want)
		}
	}
	isTerminal = func(io.Writer) bool { return true }
	progressInterval = time.Hour
	var stderr bytes.Buffer
	if runWith(fakeTranslate, args, nil, io.Discard, &stderr); stderr.Len() > 0 {
		t.Errorf("run(%q) shorter than progressInterval: stderr = %q, want nothing", args, stderr.String())
	}
}
