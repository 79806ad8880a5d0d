package batch

import (
	"fmt"

	"github.com/mut2cel/mut2cel/internal/diag"
)

// Diagnostic is one reason a run fails, or a warning: the diagnostic of
// every phase, printed as
//
//	FILE:LINE: document N (Kind/name): FIELD: DETAIL
//
// leaving out the parts that are unknown.
type Diagnostic = diag.Diagnostic

// MaxPerFile is the most diagnostics of one kind Capped keeps for a
// file, as the Go compiler stops at ten errors: the first few say what is
// wrong, and 100,000 lines of the same mistake bury them (and made 20 MB
// of standard error).
const MaxPerFile = 10

// Capped returns diags with at most MaxPerFile of each file, in their
// order, each file's last shown followed by a line that counts those left
// out. Diagnostics without a file are all kept.
func Capped(diags []Diagnostic) []Diagnostic {
	count := map[string]int{}
	for _, d := range diags {
		if d.File != "" {
			count[d.File]++
		}
	}
	var out []Diagnostic
	shown := map[string]int{}
	for _, d := range diags {
		if d.File == "" || count[d.File] <= MaxPerFile {
			out = append(out, d)
			continue
		}
		switch shown[d.File]++; {
		case shown[d.File] < MaxPerFile:
			out = append(out, d)
		case shown[d.File] == MaxPerFile:
			out = append(out, d, Diagnostic{File: d.File, Severity: d.Severity,
				Detail: fmt.Sprintf("too many problems: %d more in this file not shown", count[d.File]-MaxPerFile)})
		}
	}
	return out
}

// objectName returns "Kind/name" of a decoded manifest, or what it has of it.
func objectName(doc map[string]interface{}) string {
	kind, _ := doc["kind"].(string)
	meta, _ := doc["metadata"].(map[string]interface{})
	name, _ := meta["name"].(string)
	switch {
	case kind != "" && name != "":
		return kind + "/" + name
	case kind != "":
		return kind
	}
	return name
}
