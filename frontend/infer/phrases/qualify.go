package phrases

import (
	"regexp"
	"strings"
	"sync"
)

// What follows the phrasing (or opens the sentence, "Once set, ...")
// qualifies it:
//
//	once set, when set, after it is initially set,     set once
//	when <its own name> is set, once specified
//	after creation, once created, at creation time,    immutable (creation of this object)
//	after the <own kind> is created, once the object
//	is created, after <own kind> creation
//	while ..., when ..., if ..., unless ..., until ...,  conditional: not taken
//	once <anything else>, after <anything else>,
//	except ..., during ..., before ..., only if ...
//	by <someone>                                       says who, not that none may: not taken
//
// "after the cluster is created" speaks of another object's creation and
// is conditional.

var (
	setOnceQualifier     = `^,?\s*(?:once|when|after|if)\s+(?:it\s+is\s+|it\s+has\s+been\s+|it's\s+|being\s+|(?:this|the)\s+(?:field|value)\s+(?:is|has\s+been)\s+|%s)?(?:initially\s+|first\s+)?(?:set|specified|populated|assigned|provided|defined|configured)\b`
	creationQualifier    = `^,?\s*(?:(?:after|once|upon|on|following|at|since)\s+(?:its\s+|the\s+)?(?:initial\s+)?(?:(?:object|resource|%[1]s)\s+)?creation(?:\s+time)?|(?:after|once|when)\s+(?:it\s+is\s+|it\s+has\s+been\s+|it\s+was\s+|being\s+)?created|(?:after|once|when)\s+(?:the\s+|this\s+|an?\s+)?(?:object|resource|%[1]s)\s+(?:is|has\s+been|was)\s+created)\b`
	conditionalQualifier = regexp.MustCompile(`^,?\s*(?:while|when|whenever|if|unless|until|except|excepting|during|before|once|after|as\s+long\s+as|only\s+(?:if|when|while|for|in)|in\s+case|provided|for\s+(?:now|the\s+time\s+being))\b`)
	byQualifier          = regexp.MustCompile(`^,?\s*by\s+\S+`)
)

// qualify applies the qualifier at the start of rest to st.
func (st *Statement) qualify(rest string, ctx Context) {
	rest = strings.TrimLeft(rest, " ")
	switch {
	case setOnce(ctx.Name).MatchString(rest):
		if st.Reading == Immutable {
			st.Reading = SetOnce
		}
	case creation(ctx.Kind).MatchString(rest):
	case conditionalQualifier.MatchString(rest):
		st.Doubt = "conditional (\"" + Quote(clause(rest), 60) + "\"): it holds only then"
	case byQualifier.MatchString(rest):
		st.Doubt = "says who may not change it (\"" + Quote(clause(rest), 60) + "\"), not that it cannot change"
	}
}

// clause is rest up to the end of its clause.
func clause(rest string) string {
	rest = strings.TrimLeft(rest, ", ")
	if i := strings.IndexAny(rest, ".;"); i >= 0 {
		return rest[:i]
	}
	return rest
}

// setOnce is setOnceQualifier with the field's own name as a subject too
// ("immutable when topologyName is set").
func setOnce(name string) *regexp.Regexp {
	own := ""
	if name = strings.ToValidUTF8(name, ""); name != "" {
		own = `(?:the\s+)?` + regexp.QuoteMeta(strings.ToLower(name)) + `\s+(?:field\s+)?(?:is|has\s+been)\s+`
	}
	return compiled(setOnceQualifier, own)
}

// creation is creationQualifier with the CRD's kind as the object.
func creation(kind string) *regexp.Regexp {
	k := "object"
	if kind = strings.ToValidUTF8(kind, ""); kind != "" {
		k = regexp.QuoteMeta(kind)
	}
	return compiled(creationQualifier, k)
}

// qualifiers caches the qualifiers compiled for a name or kind: the
// corpus has a few thousand fields, and a sentence that matches a
// phrasing is qualified once per reading. Names come from the CRD: they
// are made valid UTF-8 and quoted before they enter a pattern.
var qualifiers sync.Map

func compiled(pattern, fill string) *regexp.Regexp {
	key := pattern + "\x00" + fill
	if re, ok := qualifiers.Load(key); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(strings.ReplaceAll(strings.ReplaceAll(pattern, "%[1]s", fill), "%s", fill))
	qualifiers.Store(key, re)
	return re
}
