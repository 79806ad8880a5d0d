package phrases

import (
	"regexp"
	"strings"

	"github.com/mut2cel/mut2cel/decl"
)

// Reading is what a sentence says of its field's updates.
type Reading uint8

const (
	noReading Reading = iota
	// Immutable: the field keeps the value it was created with; it
	// is neither set later nor removed: NoSet, NoUnset, NoModify
	// (x-kubernetes-mutability: Immutable, docs/semantics.md 9.2).
	Immutable
	// SetOnce: once set, the field keeps its value: NoModify, and
	// NoUnset, the reading docs/audit.md gives "immutable once set". The
	// NoUnset is weak: "once set" does not say whether clearing counts
	// as a change, and a rule that lets the field be cleared decides it.
	// Setting it later is allowed.
	SetOnce
	// RequiredOnceSet: once set, the field stays: NoUnset. Setting
	// it later is allowed.
	RequiredOnceSet
)

// Constraints gives a reading's constraints on a property: the strong
// ones, said outright, and the weak one of SetOnce.
func (r Reading) Constraints() (strong, weak decl.Constraints) {
	switch r {
	case Immutable:
		return decl.FieldConstraints, 0
	case SetOnce:
		return decl.Of(decl.NoModify), decl.Of(decl.NoUnset)
	case RequiredOnceSet:
		return decl.Of(decl.NoUnset), 0
	}
	return 0, 0
}

// AllowsSet: the reading says the field may be set after creation.
func (r Reading) AllowsSet() bool { return r == SetOnce || r == RequiredOnceSet }

// phrasing is one way a description or a rule's message says that a
// field may not change.
type phrasing struct {
	name    string
	reading Reading
	re      *regexp.Regexp
}

// phrasings is the table of what counts, matched on the sentence in lower
// case (Normalized). A sentence says what its first match says; the
// qualifiers after it (qualify) may make it a set-once reading, or
// conditional; hedges make it doubtful; the subject before it says which
// field it is about (subject.go). Examples, as CRDs write them:
//
//	is immutable            "This field is immutable." "ControllerName is not mutable."
//	                        "This field will be immutable after it is initially set." (set once)
//	and immutable           "Populated by the webhook on creation and immutable."
//	cannot be changed       "podSets cannot be changed." "Cannot be updated."
//	                        "This field cannot be modified." "... cannot be changed once set." (set once)
//	cannot change           "The name cannot change."
//	updates are not allowed "Updates to this field are forbidden."
//	set only at creation    "It can only be set at creation time."
//	Immutable.              "Immutable." "Immutable after creation." "Immutable field." "Not updatable."
//	is an immutable field   "This is an immutable field."
//	(immutable)             "The name of the pool (immutable)."
//	changing is not allowed "Changing this field after creation is not supported."
//	set once                "It may be set once." "write-once"
//	required once set       "volumeHandle is required once set." "... cannot be removed once set."
//
// Not counted: an adjective ("an immutable snapshot", "deploys an
// immutable image"), a negation ("is not immutable", "can be changed"),
// "read-only" (in Kubernetes' words, a field the system fills in).
var phrasings = []phrasing{
	{"is immutable", Immutable, regexp.MustCompile(`\b(?:is|are|be|remains?|stays?|becomes?)\s+(?:now\s+|also\s+|always\s+|currently\s+)?(?:immutable|unmodifiable|not\s+(?:mutable|modifiable|changeable|updatable))\b`)},
	{"and immutable", Immutable, regexp.MustCompile(`(?:\band|,)\s+immutable\s*(?:[.;]|$)`)},
	{"cannot be changed", Immutable, regexp.MustCompile(`\b(?:cannot|can\s?not|can't|may\s+not|must\s+not|could\s+not)\s+(?:currently\s+|yet\s+|ever\s+)?be\s+(?:changed|updated|modified|mutated|altered|edited)\b`)},
	{"cannot change", Immutable, regexp.MustCompile(`\b(?:cannot|can\s?not|can't|may\s+not|must\s+not)\s+change\b`)},
	{"updates are not allowed", Immutable, regexp.MustCompile(`\b(?:updates?|changes?|modifications?)\s+(?:to|of)\s+(?:this|the|its)\s+(?:field|value)s?\s+(?:is|are)\s+(?:not\s+(?:allowed|permitted|supported)|forbidden|disallowed|rejected|prohibited)\b`)},
	{"set only at creation", Immutable, regexp.MustCompile(`\b(?:can|may)\s+only\s+be\s+(?:set|specified|provided|given)\s+(?:at|on|during|upon|when)\s+(?:creation|create|creating)\b`)},
	{"Immutable.", Immutable, regexp.MustCompile(`^(?:immutable(?:\s+(?:field|value))?|not\s+(?:mutable|updatable|updateable|changeable|modifiable))\b`)},
	{"is an immutable field", Immutable, regexp.MustCompile(`\b(?:is|are)\s+(?:an?\s+)?immutable\s+(?:field|property|value|setting|attribute|parameter)s?\b`)},
	{"(immutable)", Immutable, regexp.MustCompile(`\(\s*immutable\s*\)`)},
	{"changing is not allowed", Immutable, regexp.MustCompile(`\b(?:changing|updating|modifying)\s+(?:this|the|its)\s+(?:field|value|setting)(?:\s+after\s+(?:its\s+)?creation)?\s+is\s+(?:not\s+(?:allowed|supported|permitted|possible)|forbidden|disallowed|prohibited)\b`)},
	{"set once", SetOnce, regexp.MustCompile(`\b(?:can|may)\s+(?:only\s+)?be\s+set\s+(?:only\s+)?once\b|\bwrite-once\b|\bset-once\b`)},
	{"required once set", RequiredOnceSet, regexp.MustCompile(`\b(?:is|are)\s+required\s+once\s+(?:it\s+is\s+|it\s+has\s+been\s+)?set\b|\b(?:cannot|can\s?not|can't|may\s+not|must\s+not)\s+be\s+(?:unset|removed|cleared)\s+once\s+set\b`)},
}

// afterImmutable are the words that may follow "immutable" where it says
// something of the field; any other word makes it an adjective of the
// word after it ("is immutable history" is no statement of this kind).
var afterImmutable = regexp.MustCompile(`^(?:$|[.,;:)!-]|\s+(?:once|after|when|whenever|if|unless|until|except|while|during|before|upon|on|at|and|or|but|so|since|because|from|for|in|by|as|to|across|throughout|without|thereafter|afterwards|itself|\())`)

// hedges make a sentence doubtful wherever they stand: it says the field
// should not change, or will not in some future, not that it cannot.
var hedges = regexp.MustCompile(`\b(?:may|might|could|will|would)\s+(?:become|be\s+made|eventually\s+be)\s+immutable\b|\bin\s+(?:a\s+|the\s+)?future\b|\bfuture\s+(?:release|version)s?\b|\bshould\s+(?:not\s+(?:be\s+)?(?:changed?|updated?|modified?)|be\s+(?:treated\s+as\s+|considered\s+)?immutable)\b|\b(?:considered|treated\s+as|effectively|expected\s+to\s+be|intended\s+to\s+be|assumed\s+to\s+be|meant\s+to\s+be|designed\s+to\s+be|must\s+be)\s+immutable\b|\bcurrently\b|\bnot\s+(?:yet\s+)?(?:enforced|validated)\b`)

// Statement is what one sentence says.
type Statement struct {
	Reading Reading
	phrase  string // the row of phrasings
	// Doubt says why the sentence is not taken as it stands: a
	// condition, a hedge, a subject that is not the field.
	Doubt string
	// Others are the names the subject speaks of, other than the
	// field's own; fields: it speaks of the fields inside ("its fields").
	Others []string
	fields bool
}

// Context is what a sentence is read against.
type Context struct {
	Name string // the field's property name, or a rule target's
	Kind string // the CRD's kind, in lower case
	// Message: a rule's message, whose subject is the rule's target.
	Message bool
	// Names are the property names of the version, squashed (Squash).
	Names map[string]bool
}

// Read reads one sentence, or reports that it says nothing of the kind.
func Read(s string, ctx Context) (Statement, bool) {
	n := Normalized(s)
	p, start, end, ok := firstPhrasing(n)
	if !ok {
		return Statement{}, false
	}
	st := Statement{Reading: p.reading, phrase: p.name}
	before, after := strings.TrimSpace(n[:start]), n[end:]
	lead, subject := leadingClause(before)
	st.qualify(after, ctx)
	if lead != "" {
		st.qualify(", "+lead, ctx)
	}
	if h := hedges.FindString(n); h != "" && st.Doubt == "" {
		st.Doubt = "hedged (\"" + h + "\"): it does not say the field cannot change"
	}
	if !ctx.Message && p.name != "(immutable)" {
		// A parenthesis annotates the sentence's own field: its
		// subject is the field described.
		st.subject(subject, s, ctx)
	}
	return st, true
}

// firstPhrasing finds the earliest match of the table, the first row on a
// tie.
func firstPhrasing(n string) (phrasing, int, int, bool) {
	best, bs, be := phrasing{}, -1, -1
	for _, p := range phrasings {
		for _, loc := range p.re.FindAllStringIndex(n, -1) {
			if strings.HasSuffix(n[loc[0]:loc[1]], "immutable") && !afterImmutable.MatchString(n[loc[1]:]) {
				continue // an adjective
			}
			if bs < 0 || loc[0] < bs {
				best, bs, be = p, loc[0], loc[1]
			}
			break
		}
	}
	return best, bs, be, bs >= 0
}

// leadingClause splits "once set, this field ..." into the clause before
// the comma, when it opens with a conditional word, and the subject.
func leadingClause(before string) (lead, subject string) {
	if i := strings.Index(before, ", "); i > 0 && conditionalOpening.MatchString(before[:i]) {
		return before[:i], strings.TrimSpace(before[i+2:])
	}
	return "", before
}

var conditionalOpening = regexp.MustCompile(`^(?:once|when|whenever|if|after|while|unless|until|during|before|as\s+long\s+as)\b`)
