package manifest

import (
	"regexp"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// The decoded value of a document is what kubectl makes of it:
// sigs.k8s.io/yaml's YAML 1.1 reading, through JSON (decodeYAML). Most
// documents hold nothing that YAML 1.1 and the node tree yaml.v3 already
// parsed could read differently: mappings with string keys, sequences,
// quoted strings, plain words, decimal integers. nodeValue builds the
// value of such a document from its node tree, so that the document is
// parsed once; anything else (anchors and aliases, tags, floats, YAML
// 1.1's octal, sexagesimal and underscored numbers, escapes, keys that
// are no plain words) sends the whole document to decodeYAML, which
// stays the definition: TestNodeValue holds the two to one another on
// every manifest of the repository and of the corpus, and FuzzParse on
// whatever it generates.

// nodeValue is the value of the document root, and whether every node of
// it could be read without decodeYAML.
func nodeValue(root *yaml.Node) (map[string]interface{}, bool) {
	if root == nil || root.Kind != yaml.DocumentNode || len(root.Content) != 1 {
		return nil, false
	}
	n := root.Content[0]
	if n.Kind != yaml.MappingNode {
		return nil, false
	}
	v, ok := valueOf(n)
	if !ok {
		return nil, false
	}
	m, _ := v.(map[string]interface{})
	return m, true
}

func valueOf(n *yaml.Node) (interface{}, bool) {
	if n.Anchor != "" || n.Style&yaml.TaggedStyle != 0 {
		return nil, false
	}
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]interface{}, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, ok := keyOf(n.Content[i])
			if !ok {
				return nil, false
			}
			v, ok := valueOf(n.Content[i+1])
			if !ok {
				return nil, false
			}
			m[k] = v
		}
		return m, true
	case yaml.SequenceNode:
		l := make([]interface{}, len(n.Content))
		for i, c := range n.Content {
			v, ok := valueOf(c)
			if !ok {
				return nil, false
			}
			l[i] = v
		}
		return l, true
	case yaml.ScalarNode:
		return scalarOf(n)
	}
	return nil, false
}

// keyOf reads a mapping key that is a string as YAML 1.1 reads it (a
// plain on or 1 is not: JSON turns it into "true" or "1").
func keyOf(k *yaml.Node) (string, bool) {
	if k.Kind != yaml.ScalarNode || k.Anchor != "" || k.Style&yaml.TaggedStyle != 0 {
		return "", false
	}
	v, ok := scalarOf(k)
	s, isString := v.(string)
	return s, ok && isString
}

// yaml11Words are the plain scalars YAML 1.1 reads as booleans or null.
var yaml11Words = map[string]interface{}{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "true": true, "True": true, "TRUE": true, "on": true, "On": true, "ON": true,
	"n": false, "N": false, "no": false, "No": false, "NO": false, "false": false, "False": false, "FALSE": false, "off": false, "Off": false, "OFF": false,
	"null": nil, "Null": nil, "NULL": nil, "~": nil, "": nil,
}

// decimal is an integer YAML 1.1 and JSON read alike.
var decimal = regexp.MustCompile(`^-?(0|[1-9][0-9]{0,17})$`)

// yaml11Float is YAML 1.1's pattern for a float, as sigs.k8s.io/yaml's
// parser matches it.
var yaml11Float = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// scalarOf reads the scalars whose YAML 1.1 value is plain to see. A
// plain scalar is resolved by its first character, as YAML 1.1's parser
// does: one that cannot start a number, a boolean or null is a string;
// one that starts with a dot is a string where no float reads it; one
// that starts with a digit or a sign is a decimal integer, or a string
// where no integer, float or date reads it. What is left (floats, dates,
// other integers) goes to YAML 1.1 itself, whose JSON form is not the
// text (1.0 becomes 1).
func scalarOf(n *yaml.Node) (interface{}, bool) {
	switch {
	case n.Style&yaml.SingleQuotedStyle != 0, n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return n.Value, true
	case n.Style&yaml.DoubleQuotedStyle != 0:
		// Escapes are read alike by both parsers in the cases seen,
		// but not worth the risk: send them to YAML 1.1.
		return n.Value, !strings.ContainsRune(n.Value, '\\')
	}
	s := n.Value
	if v, ok := yaml11Words[s]; ok {
		return v, true
	}
	switch c := s[0]; {
	case c == '.':
		_, err := strconv.ParseFloat(s, 64)
		return s, err != nil && !strings.EqualFold(s, ".inf") && !strings.EqualFold(s, ".nan")
	case c >= '0' && c <= '9' || c == '+' || c == '-':
		return digitsOrString(s)
	case c == '<':
		return s, s != "<<" // a merge key
	}
	return s, true
}

// digitsOrString reads a plain scalar that starts with a digit or a sign.
func digitsOrString(s string) (interface{}, bool) {
	if decimal.MatchString(s) {
		i, err := strconv.ParseInt(s, 10, 64)
		return i, err == nil
	}
	if len(s) > 4 && s[4] == '-' || strings.HasSuffix(strings.ToLower(s), "inf") {
		return nil, false // maybe a date, or an infinity
	}
	plain := strings.ReplaceAll(s, "_", "")
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return nil, false
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return nil, false
	}
	if yaml11Float.MatchString(plain) || strings.HasPrefix(plain, "0b") || strings.HasPrefix(plain, "-0b") {
		return nil, false
	}
	return s, true
}
