package batch

import (
	"fmt"
	"strings"

	"github.com/mut2cel/mut2cel/plan"
)

// Declarations that need no rule: the schema already keeps what they
// say. A declaration inside an item of a set constrains nothing (an item
// exists before and after only when it is equal as a whole), and a field
// that its parents require cannot be unset (docs/translation.md, checks
// that cannot be violated). translate writes no rule for them, policy no
// validating policy and patch no rule, and all succeed: the declarations
// are true, and refusing them would make a user delete a true statement
// to pass a gate. A note says so, so that writing nothing does not pass
// for enforcing something unseen.

// Unenforced lists the served versions of p that declare something and
// need no rule for it, in the plan's order.
func Unenforced(p *plan.Plan) []string {
	if p == nil {
		return nil
	}
	var out []string
	for _, v := range p.Versions {
		if v.Served && len(v.Declarations) > 0 && len(v.Rules) == 0 {
			out = append(out, v.Name)
		}
	}
	return out
}

// Declares says whether p declares anything in a served version.
func Declares(p *plan.Plan) bool {
	if p == nil {
		return false
	}
	for _, v := range p.Versions {
		if v.Served && len(v.Declarations) > 0 {
			return true
		}
	}
	return false
}

// UnenforcedNote is the note on the versions of the CRD at whose
// declarations need no rule; needed says what the command writes for
// them: "no rule", "no validating policy".
func UnenforcedNote(at Diagnostic, versions []string, needed string) Diagnostic {
	note := at
	what := "version " + versions[0]
	if len(versions) > 1 {
		what = "versions " + strings.Join(versions, ", ")
	}
	note.Detail = fmt.Sprintf("%s: the declarations need %s: the schema keeps what they say already (inside a set item nothing can change; a field its parents require cannot be unset: docs/translation.md), so nothing is written for them", what, needed)
	return note
}
