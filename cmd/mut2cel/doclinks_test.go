package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// TestDocLinks fails on a relative link of README.md or docs/*.md that
// leads nowhere: to a file or directory the repository does not have, or
// to an anchor (#...) that no heading or <a id> of the linked page makes.
// Links inside code, and links with a scheme (https:), are not checked.
func TestDocLinks(t *testing.T) {
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{"../../README.md"}, pages...)
	anchors := map[string]map[string]bool{} // by the linked page's path
	for _, page := range pages {
		for i, line := range proseLines(t, page) {
			line = inlineCode.ReplaceAllString(line, "")
			for _, m := range inlineLink.FindAllStringSubmatch(line, -1) {
				link := m[1]
				if hasScheme.MatchString(link) {
					continue
				}
				at := fmt.Sprintf("%s:%d: link to %s", filepath.Base(page), i+1, link)
				file, anchor, _ := strings.Cut(link, "#")
				target := page
				if file != "" {
					target = filepath.Join(filepath.Dir(page), file)
					if _, err := os.Stat(target); err != nil {
						t.Errorf("%s: no such file or directory", at)
						continue
					}
				}
				if anchor == "" || !strings.HasSuffix(target, ".md") {
					continue
				}
				if anchors[target] == nil {
					anchors[target] = markdownAnchors(t, target)
				}
				if !anchors[target][anchor] {
					t.Errorf("%s: %s has no heading or <a id> that makes #%s", at, filepath.Base(target), anchor)
				}
			}
		}
	}
}

var (
	inlineLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	inlineCode = regexp.MustCompile("`[^`]*`")
	hasScheme  = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
	heading    = regexp.MustCompile(`^#{1,6}\s+(.*)$`)
	anchorID   = regexp.MustCompile(`<a id="([^"]+)"`)
	htmlTag    = regexp.MustCompile(`<[^>]*>`)
)

// proseLines returns the lines of a Markdown file, those of fenced code
// blocks (and their fences) made empty.
func proseLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	fenced := false
	for i, line := range lines {
		fence := strings.HasPrefix(strings.TrimSpace(line), "```")
		if fence || fenced {
			lines[i] = ""
		}
		if fence {
			fenced = !fenced
		}
	}
	return lines
}

// markdownAnchors returns the anchors of a Markdown file: those GitHub
// makes of its headings (a repeated one numbered -1, -2, ...) and those
// of its <a id="..."> elements.
func markdownAnchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, line := range proseLines(t, path) {
		for _, m := range anchorID.FindAllStringSubmatch(line, -1) {
			anchors[m[1]] = true
		}
		if m := heading.FindStringSubmatch(line); m != nil {
			slug := headingSlug(m[1])
			if n := seen[slug]; n > 0 {
				anchors[fmt.Sprintf("%s-%d", slug, n)] = true
			} else {
				anchors[slug] = true
			}
			seen[slug]++
		}
	}
	return anchors
}

// headingSlug is the anchor GitHub makes of a heading: HTML tags
// dropped, lower case, letters, digits, '-' and '_' kept, each space
// made a '-', everything else dropped.
func headingSlug(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(htmlTag.ReplaceAllString(text, ""))) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestHeadingSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"Exit status":                                 "exit-status",
		"`-o json` and `-o yaml`":                     "-o-json-and--o-yaml",
		"The target: `mut2cel.io/kube-version`":       "the-target-mut2celiokube-version",
		"Your own rules: the reference's companions":  "your-own-rules-the-references-companions",
		"CRDs you do not own: `mut2cel patch`":        "crds-you-do-not-own-mut2cel-patch",
		`<a id="x-y"></a>widgets.example.com`:         "widgetsexamplecom",
		"9.3 Where mut2cel and validation-gen differ": "93-where-mut2cel-and-validation-gen-differ",
	} {
		if got := headingSlug(heading); got != want {
			t.Errorf("headingSlug(%q) = %q, want %q", heading, got, want)
		}
	}
}
