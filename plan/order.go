package plan

import (
	"strings"

	"github.com/mut2cel/mut2cel/decl"
)

// Compare orders schema paths as the compiler walks a structural schema:
// a node before the nodes below it, properties in name order, then the
// entries of a list or map. A structural node has properties or entries,
// never both, so this is the order of a walk of the schema itself. It
// returns -1, 0 or +1.
func Compare(a, b decl.Path) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := a[i], b[i]
		switch {
		case x.Entries && y.Entries:
			continue
		case x.Entries:
			return 1
		case y.Entries:
			return -1
		}
		if c := strings.Compare(x.Name, y.Name); c != 0 {
			return c
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}

// Less is Compare(a, b) < 0.
func Less(a, b decl.Path) bool { return Compare(a, b) < 0 }
