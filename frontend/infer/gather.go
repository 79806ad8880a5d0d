package infer

import (
	"strings"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/frontend/infer/phrases"
	"github.com/mut2cel/mut2cel/frontend/infer/ruleshape"
)

// gathered is what one served version says, node by node.
type gathered struct {
	crd     *crd.CRD
	version *crd.Version
	kind    string          // the CRD's kind, lower case
	names   map[string]bool // every property name of the version, squashed
	nodes   map[string]*facts
	unions  map[string][]unionEvidence
	copied  int
	unread  []Evidence
	// templates are the nodes that describe another object (isTemplate).
	templates []decl.Path
}

// facts is what a version says of one node.
type facts struct {
	path decl.Path
	// enforced and conditional: by published rules, always or under a
	// condition the rule tests.
	enforced, conditional decl.Constraints
	// strong and weak: by text (messages, descriptions), phrases.Reading.
	strong, weak decl.Constraints
	// A rule, or the text, lets the field be set (unset) after creation,
	// in so many words.
	ruleAllowsSet, ruleAllowsUnset, textAllowsSet bool
	// compares: a rule compares the node's old and new values with ==,
	// which reads formatted strings as CEL does.
	compares bool
	keys     []keysFound
	doubts   []doubt
	evidence []Evidence
}

// doubt is evidence not taken as it stands, and what it would declare.
type doubt struct {
	constraints decl.Constraints
	why         string
}

// keysFound is a collection shape of a rule, with its evidence.
type keysFound struct {
	shape    ruleshape.Keys
	evidence Evidence
}

func gather(c *crd.CRD, v *crd.Version) *gathered {
	g := &gathered{crd: c, version: v, kind: strings.ToLower(c.Kind), names: map[string]bool{},
		nodes: map[string]*facts{}, unions: map[string][]unionEvidence{}}
	root := v.Root()
	var nodes []decl.Path
	raw := map[string]map[string]interface{}{}
	v.Walk(func(path []interface{}, node map[string]interface{}) {
		p := decl.PathOf(path[len(root):])
		nodes = append(nodes, p)
		raw[p.String()] = node
		if len(p) > 0 && !p[len(p)-1].Entries {
			g.names[phrases.Squash(p[len(p)-1].Name)] = true
		}
		if len(p) > 0 && isTemplate(node) {
			g.templates = append(g.templates, p)
		}
	})
	for _, p := range nodes {
		node := raw[p.String()]
		g.rules(p, node)
		g.description(p, node)
	}
	return g
}

// at is the facts of a node, made on first use.
func (g *gathered) at(p decl.Path) *facts {
	k := p.String()
	if f, ok := g.nodes[k]; ok {
		return f
	}
	f := &facts{path: p}
	g.nodes[k] = f
	return f
}

// rules reads the published rules of a node.
func (g *gathered) rules(p decl.Path, node map[string]interface{}) {
	entries, _ := node[edit.ValidationsKey].([]interface{})
	for _, entry := range entries {
		m, _ := entry.(map[string]interface{})
		text, _ := m["rule"].(string)
		message, _ := m["message"].(string)
		optional, _ := m["optionalOldSelf"].(bool)
		rule, ok := ruleshape.Parse(text)
		if !ok {
			continue
		}
		ev := Evidence{Kind: Rule, Version: g.version.Name, At: p, Text: text, Message: message}
		for _, part := range rule.Parts() {
			if part.ReadsOld() {
				g.transition(p, part, optional, ev)
				continue
			}
			if ch, ok := part.Union(); ok {
				g.unions[p.String()] = append(g.unions[p.String()], unionEvidence{choice: ch, evidence: ev})
			}
		}
	}
}

// transition reads one part of a rule that reads oldSelf.
func (g *gathered) transition(p decl.Path, part ruleshape.Part, optional bool, ev Evidence) {
	if s, ok := part.Collection(); ok {
		f := g.at(extend(p, s.Steps))
		ev.Reading = keysReading(s)
		f.keys = append(f.keys, keysFound{shape: s, evidence: ev})
		f.evidence = append(f.evidence, ev)
		return
	}
	trs, ok := part.Transitions(len(p) > 0, optional)
	if !ok {
		g.unread = append(g.unread, ev)
		return
	}
	for _, tr := range trs {
		target := extend(p, tr.Steps)
		if len(target) == 0 || inRootMetadata(target) {
			continue
		}
		g.at(target).ruleSays(tr, ev, g.messageContext(target))
	}
}

// messageContext reads a rule's message for the field target.
func (g *gathered) messageContext(target decl.Path) phrases.Context {
	return phrases.Context{Name: ownName(target), Kind: g.kind, Message: true}
}

// extend is p followed by the properties steps.
func extend(p decl.Path, steps []string) decl.Path {
	out := p
	for _, s := range steps {
		out = out.Child(decl.Step{Name: s})
	}
	return out
}

// ruleSays records what a rule does to the field, and what its message
// says of it.
func (f *facts) ruleSays(tr ruleshape.Transition, ev Evidence, ctx phrases.Context) {
	if tr.Certain != 0 {
		ev.Reading = "enforces " + tr.Certain.String()
		f.enforced |= tr.Certain
		f.ruleAllowsSet = f.ruleAllowsSet || tr.AllowsSet
		f.ruleAllowsUnset = f.ruleAllowsUnset || tr.AllowsUnset
		f.compares = f.compares || tr.Certain.Has(decl.NoModify)
	}
	if tr.Conditional != 0 {
		if ev.Reading != "" {
			ev.Reading += "; "
		}
		ev.Reading += "enforces " + tr.Conditional.String() + " only under a condition it tests"
		f.doubts = append(f.doubts, doubt{tr.Conditional | tr.Certain, "a published rule holds only under a condition it tests (" + phrases.Quote(ev.Text, 80) + ")"})
	}
	if tr.NullGuard {
		ev.Reading += "; lets a field with no old value be set: the idiom of \"set once\""
		f.weak |= decl.Of(decl.NoUnset)
	}
	conditional := tr.Certain == 0
	for _, s := range phrases.Sentences(ev.Message) {
		st, ok := phrases.Read(s, ctx)
		if !ok {
			continue
		}
		if conditional && st.Doubt == "" {
			st.Doubt = "its rule holds only under a condition"
		}
		ev.Reading += "; the message reads " + f.textReads(st)
	}
	f.evidence = append(f.evidence, ev)
}

// textSays records a statement of a description.
func (f *facts) textSays(st phrases.Statement, ev Evidence) {
	ev.Reading = f.textReads(st)
	f.evidence = append(f.evidence, ev)
}

// textReads records what a statement says and words it.
func (f *facts) textReads(st phrases.Statement) string {
	strong, weak := st.Reading.Constraints()
	if st.Doubt != "" {
		f.doubts = append(f.doubts, doubt{strong | weak, st.Doubt})
		return readingWords(st) + " (not taken: " + st.Doubt + ")"
	}
	f.strong |= strong
	f.weak |= weak
	f.textAllowsSet = f.textAllowsSet || st.Reading.AllowsSet()
	return readingWords(st)
}

// readingWords says what a statement reads as.
func readingWords(st phrases.Statement) string {
	switch st.Reading {
	case phrases.Immutable:
		return "immutable: " + decl.FieldConstraints.String()
	case phrases.SetOnce:
		return "set once: " + decl.Of(decl.NoUnset, decl.NoModify).String()
	case phrases.RequiredOnceSet:
		return "required once set: " + decl.Of(decl.NoUnset).String()
	}
	return ""
}
