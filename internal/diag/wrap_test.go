package diag

import (
	"strings"
	"testing"
)

func TestWrap(t *testing.T) {
	long := strings.TrimSpace(strings.Repeat("word ", 70)) // 349 characters
	tests := []struct {
		name, in, want string
	}{
		{"short", "a: b; c", "a: b; c"},
		{"after a semicolon", strings.Repeat("x", 200) + "; " + strings.Repeat("y", 200),
			strings.Repeat("x", 200) + ";\n  " + strings.Repeat("y", 200)},
		{"after a colon before a comma", strings.Repeat("x", 160) + ", " + strings.Repeat("x", 20) + ": " + strings.Repeat("y", 200),
			strings.Repeat("x", 160) + ", " + strings.Repeat("x", 20) + ":\n  " + strings.Repeat("y", 200)},
		{"at a space", long, strings.TrimSpace(long[:300]) + "\n  " + strings.TrimSpace(long[300:])},
		{"continuation lines kept", "head\n  " + strings.Repeat("z", 20), "head\n  " + strings.Repeat("z", 20)},
		{"inside a path", strings.Repeat("a.properties[b].", 25), strings.Repeat("a.properties[b].", 17) + "a.properties[b]\n  ." + strings.Repeat("a.properties[b].", 7)},
		{"no place to break", strings.Repeat("x", 400), strings.Repeat("x", 400)},
	}
	for _, tt := range tests {
		if got := wrap(tt.in); got != tt.want {
			t.Errorf("wrap(%s) =\n%s\nwant\n%s", tt.name, got, tt.want)
		}
		for _, line := range strings.Split(wrap(tt.in), "\n") {
			if len(line) > maxLine && strings.ContainsAny(line, " ]") {
				t.Errorf("wrap(%s) left a line of %d characters", tt.name, len(line))
			}
		}
	}
}
