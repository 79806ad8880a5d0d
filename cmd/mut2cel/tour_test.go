package main

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/corpus"
)

// TestReadmeTour runs the tour of README.md on the corpus copy of the CRD
// it downloads, command by command, and requires every output line the
// tour shows, in order, and the exit status it tells.
func TestReadmeTour(t *testing.T) {
	if testing.Short() {
		// Its verify runs judge 10,000 pairs a version, as the README
		// shows: the full run checks it.
		t.Skip("the tour verifies 40,000 pairs")
	}
	kueue := filepath.Join(corpus.Dir(t), "kueue")
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, tour, ok := strings.Cut(string(readme), "<!-- tour: begin -->\n")
	tour, _, ok2 := strings.Cut(tour, "<!-- tour: end -->")
	if !ok || !ok2 {
		t.Fatal("README.md has no tour between <!-- tour: begin --> and <!-- tour: end -->")
	}
	script, shown := tourBlocks(tour)

	t.Chdir(t.TempDir())
	var commands [][]string
	var crd, published string // the downloaded file and its text
	for i := 0; i < len(script); i++ {
		line := script[i]
		switch {
		case strings.HasPrefix(line, "curl "):
			url := line[strings.LastIndex(line, " ")+1:]
			if !strings.Contains(url, "/kueue/ff69552e79ad21652c36caa97038382e55625cf7/") {
				t.Fatalf("the tour downloads %s, not the kueue commit of the corpus", url)
			}
			data, err := os.ReadFile(filepath.Join(kueue, path.Base(url)))
			if err != nil {
				t.Fatal(err)
			}
			crd, published = path.Base(url), string(data)
			writeFile(t, crd, published)
		case strings.HasPrefix(line, "cat > "):
			name := strings.Fields(line)[2]
			var body strings.Builder
			for i++; i < len(script) && script[i] != "EOF"; i++ {
				body.WriteString(script[i] + "\n")
			}
			writeFile(t, name, body.String())
		case strings.HasPrefix(line, "mut2cel "):
			commands = append(commands, strings.Fields(line)[1:])
		default:
			t.Fatalf("the tour runs %q, which this test does not know", line)
		}
	}

	// verify finds the published rule wanting; the rest succeeds: the
	// translation, its check and cost, the policy and its check.
	wantExit := []int{exitFinding, exitOK, exitOK, exitOK, exitOK, exitOK}
	if len(commands) != len(wantExit) {
		t.Fatalf("the tour runs %d commands, this test knows the exit status of %d", len(commands), len(wantExit))
	}
	var out bytes.Buffer
	for i, args := range commands {
		var stderr bytes.Buffer
		if code := run(args, strings.NewReader(""), &out, &stderr); code != wantExit[i] {
			t.Fatalf("mut2cel %s: exit %d, want %d; stderr:\n%s", strings.Join(args, " "), code, wantExit[i], stderr.String())
		}
	}
	if missing := notInOrder(strings.Split(out.String(), "\n"), shown); missing != "" {
		t.Fatalf("the tour shows the line\n%s\nwhich the commands do not print (in this order); they print:\n%s", missing, out.String())
	}
	// translate only adds lines: the published rules and the rest stay.
	translated, err := os.ReadFile(crd)
	if err != nil {
		t.Fatal(err)
	}
	if missing := notInOrder(strings.Split(string(translated), "\n"), strings.Split(published, "\n")); missing != "" {
		t.Errorf("translate -w changed or removed the published line\n%s", missing)
	}
}

// notInOrder returns the first of want that is not a line of lines after
// the lines matched before it; "" when all are.
func notInOrder(lines, want []string) string {
	at := 0
	for _, w := range want {
		for at < len(lines) && lines[at] != w {
			at++
		}
		if at == len(lines) {
			return w
		}
		at++
	}
	return ""
}

// tourBlocks returns the lines of the sh blocks of the tour, and those of
// its other blocks (output), without the "..." that elide lines.
func tourBlocks(tour string) (script, shown []string) {
	var block *[]string
	for _, line := range strings.Split(tour, "\n") {
		switch {
		case block == nil && line == "```sh":
			block = &script
		case block == nil && line == "```":
			block = &shown
		case block != nil && line == "```":
			block = nil
		case block != nil && line != "...":
			*block = append(*block, line)
		}
	}
	return script, shown
}
