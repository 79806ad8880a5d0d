package diag

import "strings"

// maxLine is the longest line a diagnostic prints: a terminal shows it in
// a few rows, and a reader takes it in at once.
const maxLine = 300

// wrap breaks lines longer than maxLine where breakAt says, continuing on
// lines indented by two spaces.
func wrap(text string) string {
	lines := strings.Split(text, "\n")
	var out []string
	for _, line := range lines {
		for len(line) > maxLine {
			cut := breakAt(line[:maxLine])
			if cut <= 0 {
				break
			}
			out = append(out, strings.TrimRight(line[:cut], " "))
			line = "  " + strings.TrimLeft(line[cut:], " ")
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// breakAt is where to break a line whose first maxLine bytes are head:
// after the last separator of the strongest kind (";", ":", ",", space,
// and last, inside a schema path, "]") found in its second half, or 0
// when there is none.
func breakAt(head string) int {
	for _, sep := range []string{"; ", ": ", ", ", " ", "]"} {
		if i := strings.LastIndex(head, sep); i > maxLine/2 {
			return i + len(sep)
		}
	}
	return 0
}
