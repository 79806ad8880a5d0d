package diag

import (
	"errors"
	"fmt"
	"strings"
)

// List is every problem one step found, as an error.
type List []Diagnostic

// Error is the text of the one diagnostic, or a count followed by each
// on its own indented line.
func (l List) Error() string {
	parts := make([]string, len(l))
	for i, d := range l {
		parts[i] = d.String()
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return fmt.Sprintf("%d problems:\n  %s", len(parts), strings.Join(parts, "\n  "))
}

// As returns the diagnostics err holds when it is or wraps a List.
func As(err error) (List, bool) {
	var l List
	if errors.As(err, &l) {
		return l, true
	}
	return nil, false
}
