package manifest

import (
	"reflect"
	"strings"

	"github.com/mut2cel/mut2cel/edit"
	yaml "go.yaml.in/yaml/v3"
)

// The splicer's handling of Edit.Create, Edit.Set and Edit.RemoveRules. As
// elsewhere in splicing, lines the edit does not concern stay as they are,
// and any layout other than one key or item per line gives errNoSplice.

// create writes the mapping an edit with Create needs when it is absent,
// null or an empty flow mapping ({}). done reports that the edit was
// written whole (Set and AddRules into the new mapping); when the mapping
// exists already, the edit goes on as any other.
func (s *splicer) create(root *yaml.Node, e edit.Edit) (done bool, err error) {
	n := len(e.Path)
	if n == 0 {
		return false, errNoSplice
	}
	key, ok := e.Path[n-1].(string)
	if !ok {
		return false, errNoSplice
	}
	if ins := s.made[edit.Render(e.Path)]; ins != nil {
		ins.lines = append(ins.lines, s.mappingLines(ins.indent+s.step, e)...)
		return true, nil
	}
	parent, err := findMapping(root, e.Path[:n-1])
	if err != nil || parent.Style&yaml.FlowStyle != 0 || len(parent.Content) == 0 {
		return false, errNoSplice
	}
	indent := parent.Content[0].Column - 1
	i := keyIndex(parent, key)
	if i >= 0 && !nullOrEmpty(parent.Content[i+1]) {
		return false, nil
	}
	if len(e.Remove) > 0 || len(e.RemoveRules) > 0 {
		return false, errNoSplice // nothing to remove in a new mapping
	}
	ins := &insertion{indent: indent}
	s.made[edit.Render(e.Path)] = ins
	if i < 0 {
		last := s.tr.lastLine(s.t, parent, indent)
		if last == 0 {
			return false, errNoSplice
		}
		ins.lines = append([]string{pad(indent) + renderKey(key) + ":"}, s.mappingLines(indent+s.step, e)...)
		s.after[last] = append(s.after[last], ins)
		return true, nil
	}
	k, v := parent.Content[i], parent.Content[i+1]
	prefix, ok := s.keyPrefix(k, v, indent)
	if !ok || v.Line != k.Line {
		return false, errNoSplice
	}
	if c := v.LineComment + k.LineComment; c != "" {
		prefix += " " + c
	}
	ins.lines = append([]string{prefix}, s.mappingLines(indent+s.step, e)...)
	s.replace[k.Line] = ins
	return true, nil
}

// nullOrEmpty reports whether a value can be replaced by a created
// mapping: null, or an empty flow mapping.
func nullOrEmpty(v *yaml.Node) bool {
	switch {
	case v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null":
		return true
	case v.Kind == yaml.MappingNode && len(v.Content) == 0:
		return true
	}
	return false
}

// mappingLines writes the Set keys and the AddRules of an edit as the
// lines of a new block mapping whose keys are at column indent+1.
func (s *splicer) mappingLines(indent int, e edit.Edit) []string {
	var lines []string
	for _, set := range e.Set {
		first, more := renderValue(set.Value, indent)
		lines = append(lines, pad(indent)+renderKey(set.Key)+": "+first)
		lines = append(lines, more...)
	}
	if len(e.AddRules) > 0 {
		lines = append(lines, pad(indent)+edit.ValidationsKey+":")
		lines = append(lines, s.items(indent+s.offset, -1, e.AddRules)...)
	}
	return lines
}

// keyPrefix returns the text of a pair's key line up to and including the
// colon, without trailing space: the key as the file spells it.
func (s *splicer) keyPrefix(k, v *yaml.Node, indent int) (string, bool) {
	if k.Kind != yaml.ScalarNode || !s.t.startsAt(k.Line, indent+1) {
		return "", false
	}
	line := s.t.content(k.Line)
	if v.Line == k.Line {
		if v.Column-1 > len(line) {
			return "", false
		}
		line = line[:v.Column-1]
	}
	line = strings.TrimRight(line, " \t")
	return line, strings.HasSuffix(line, ":")
}

// set writes the keys of Set: a present key gets its value replaced, from
// the key's line to the value's last line; an absent key is added after
// the mapping's last line.
func (s *splicer) set(m *yaml.Node, indent int, settings []edit.Setting) error {
	for _, set := range settings {
		first, more := renderValue(set.Value, indent)
		i := keyIndex(m, set.Key)
		if i < 0 {
			last := s.tr.lastLine(s.t, m, indent)
			if last == 0 {
				return errNoSplice
			}
			lines := append([]string{pad(indent) + renderKey(set.Key) + ": " + first}, more...)
			s.after[last] = append(s.after[last], &insertion{indent: indent, lines: lines})
			continue
		}
		if err := s.replaceValue(m.Content[i], m.Content[i+1], indent, first, more); err != nil {
			return err
		}
	}
	return nil
}

// replaceValue writes a new value for a present key, keeping the key's
// spelling and, for a one-line value, a comment after it.
func (s *splicer) replaceValue(k, v *yaml.Node, indent int, first string, more []string) error {
	from, to := s.pairLines(k, v, indent)
	prefix, ok := s.keyPrefix(k, v, indent)
	if from == 0 || to < from || !ok || s.replace[from] != nil {
		return errNoSplice
	}
	line := prefix + " " + first
	if c := v.LineComment + k.LineComment; c != "" && from == to && len(more) == 0 {
		content := s.t.content(from)
		if at := strings.LastIndex(content, c); at >= v.Column-1 {
			start := at
			for start > 0 && content[start-1] == ' ' {
				start--
			}
			line += content[start:]
		}
	}
	for n := from; n <= to; n++ {
		s.drop[n] = true
	}
	s.replace[from] = &insertion{indent: indent, lines: append([]string{line}, more...)}
	return nil
}

// removeRules deletes the lines of the list items that RemoveRules names.
// When that empties the list and no rules are added, the key goes too;
// listGone reports that.
func (s *splicer) removeRules(m *yaml.Node, indent int, e edit.Edit) (listGone bool, err error) {
	if len(e.RemoveRules) == 0 {
		return false, nil
	}
	i := keyIndex(m, edit.ValidationsKey)
	data, _ := edit.Mapping(s.cur, e.Path)
	list, _ := data[edit.ValidationsKey].([]interface{})
	if i < 0 || m.Content[i+1].Kind != yaml.SequenceNode || m.Content[i+1].Style&yaml.FlowStyle != 0 {
		return false, errNoSplice
	}
	seq := m.Content[i+1]
	var alive []*yaml.Node
	for _, item := range seq.Content {
		if !s.gone[item] {
			alive = append(alive, item)
		}
	}
	kept := len(list)
	for _, r := range e.RemoveRules {
		want, found := r.Value(), false
		for j, item := range alive {
			if j < len(list) && !s.gone[item] && reflect.DeepEqual(list[j], want) {
				if err := s.dropItem(seq, item); err != nil {
					return false, err
				}
				found = true
				kept--
			}
		}
		if !found {
			return false, errNoSplice
		}
	}
	if kept > 0 || len(e.AddRules) > 0 {
		return false, nil
	}
	from, to := s.pairLines(m.Content[i], seq, indent)
	if from == 0 || to < from {
		return false, errNoSplice
	}
	for n := from; n <= to; n++ {
		s.drop[n] = true
	}
	return true, nil
}

// dropItem deletes the lines of one block list item that starts on its
// dash's line.
func (s *splicer) dropItem(seq, item *yaml.Node) error {
	dash := seq.Column - 1
	if !s.t.startsAt(item.Line, seq.Column) || s.t.content(item.Line)[dash] != '-' {
		return errNoSplice
	}
	last := s.tr.lastLine(s.t, item, dash)
	if last == 0 {
		return errNoSplice
	}
	for n := item.Line; n <= last; n++ {
		s.drop[n] = true
	}
	s.gone[item] = true
	return nil
}
