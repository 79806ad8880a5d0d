package auditrun

import "testing"

// TestCut cuts at a character, never inside one.
func TestCut(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdefghij", 8, "abcde..."},
		{"ab\u00e9\u00e9\u00e9", 6, "ab..."}, // é is two bytes: the cut falls inside the first
	} {
		if got := cut(c.s, c.n); got != c.want {
			t.Errorf("cut(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}
