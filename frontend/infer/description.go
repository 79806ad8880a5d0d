package infer

import (
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/frontend/infer/phrases"
)

// description reads the sentences of a node's description.
func (g *gathered) description(p decl.Path, node map[string]interface{}) {
	text, _ := node["description"].(string)
	ctx := phrases.Context{Name: ownName(p), Kind: g.kind, Names: g.names}
	type read struct {
		st       phrases.Statement
		sentence string
	}
	var found []read
	for _, s := range phrases.Sentences(text) {
		if st, ok := phrases.Read(s, ctx); ok {
			found = append(found, read{st, s})
		}
	}
	if len(found) == 0 {
		return
	}
	tmpl, inTemplate := g.templateAbove(p)
	for _, r := range found {
		if _, copied := phrases.CopiedBuiltin(text, r.sentence); copied {
			g.copied++
			continue
		}
		st := r.st
		ev := Evidence{Kind: Description, Version: g.version.Name, At: p, Text: r.sentence}
		if inTemplate && st.Doubt == "" {
			st.Doubt = "it stands below " + tmpl.String() + ", a template of another object, and speaks of the objects made from it"
		}
		if len(st.Others) > 0 {
			if targets := g.resolve(p, st.Others); len(targets) > 0 {
				st.Doubt = "the sentence stands on " + p.String() + " and names this field: a sentence about other fields is not taken as sure"
				for _, t := range targets {
					g.at(t).textSays(st, ev)
				}
				continue
			}
		}
		if len(p) > 0 && !inRootMetadata(p) {
			g.at(p).textSays(st, ev)
		}
	}
}

// templateAbove finds the template a node lies below, if any.
func (g *gathered) templateAbove(p decl.Path) (decl.Path, bool) {
	for _, t := range g.templates {
		if below(p, t) {
			return t, true
		}
	}
	return nil, false
}

// isTemplate reports whether a node describes another object: an
// embedded resource, or an object with both metadata and spec (a Pod
// template, a PVC template), below the root.
func isTemplate(node map[string]interface{}) bool {
	if embedded, _ := node["x-kubernetes-embedded-resource"].(bool); embedded {
		return true
	}
	props, _ := node["properties"].(map[string]interface{})
	_, meta := props["metadata"]
	_, spec := props["spec"]
	return meta && spec
}

// resolve finds the nodes the names of a subject stand for: a property
// of the node, of its parent, or a dotted path from the root.
func (g *gathered) resolve(p decl.Path, names []string) []decl.Path {
	var out []decl.Path
	seen := map[string]bool{}
	for _, n := range names {
		for _, base := range []decl.Path{p, parentOf(p), nil} {
			t, ok := g.follow(base, n)
			if ok && !seen[t.String()] && len(t) > 0 && !inRootMetadata(t) {
				seen[t.String()] = true
				out = append(out, t)
				break
			}
		}
	}
	return out
}

// follow walks the dotted name from base through properties (and the
// entries of lists and maps on the way), matching names without regard
// to case and separators.
func (g *gathered) follow(base decl.Path, dotted string) (decl.Path, bool) {
	cur := base
	for _, part := range splitDots(dotted) {
		node, ok := g.version.NodeAt(cur)
		for ok && node["properties"] == nil && (node["items"] != nil || node["additionalProperties"] != nil) {
			cur = cur.Child(decl.Step{Entries: true})
			node, ok = g.version.NodeAt(cur)
		}
		if !ok {
			return nil, false
		}
		props, _ := node["properties"].(map[string]interface{})
		name, found := "", false
		for k := range props {
			if phrases.Squash(k) == phrases.Squash(part) {
				name, found = k, true
			}
		}
		if !found {
			return nil, false
		}
		cur = cur.Child(decl.Step{Name: name})
	}
	return cur, len(cur) > len(base)
}

func parentOf(p decl.Path) decl.Path {
	if len(p) == 0 {
		return nil
	}
	return p[:len(p)-1]
}

func splitDots(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}
