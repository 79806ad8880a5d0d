package policy

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/mut2cel/mut2cel/decl"
)

// normalizeExpression is the JSONPatch expression of one mutation: the
// normalization of union u on node (docs/semantics.md 11.7). For a union
// on .spec with discriminator type and members a (value A) and b (B) it
// reads:
//
//	// KEP-1027 normalization of the union on .spec: discriminator type, members a, b
//	!('spec' in object && type(object['spec']) == map) ? [] :
//	[object['spec']].map(n,
//	[type(oldObject) == map && 'spec' in oldObject && type(oldObject['spec']) == map ? oldObject['spec'] : {}].map(o,
//	[[n[?'a'].orValue(null) != null, n[?'b'].orValue(null) != null]].map(s,
//	[[s[0] && o[?'a'].orValue(null) == null, s[1] && o[?'b'].orValue(null) == null]].map(a,
//	  !(n[?'type'].orValue(dyn(null)) in [dyn(null), dyn('')] && o[?'type'].orValue(dyn(null)) in [dyn(null), dyn('')]) && n[?'type'].orValue(dyn(null)) != o[?'type'].orValue(dyn(null))
//	  ? [0, 1].filter(i, s[i] && n[?'type'].orValue(dyn(null)) != ['A', 'B'][i]).map(i, JSONPatch{op: 'remove', path: ['/spec/a', '/spec/b'][i]})
//	  : s.exists_one(x, x)
//	  ? (n[?'type'].orValue(dyn(null)) == ['A', 'B'][s.indexOf(true)] ? [] : [JSONPatch{op: 'add', path: '/spec/type', value: ['A', 'B'][s.indexOf(true)]}])
//	  : a.exists_one(x, x)
//	  ? (n[?'type'].orValue(dyn(null)) == ['A', 'B'][a.indexOf(true)] ? [] : [JSONPatch{op: 'add', path: '/spec/type', value: ['A', 'B'][a.indexOf(true)]}])
//	    + [0, 1].filter(i, s[i] && !a[i]).map(i, JSONPatch{op: 'remove', path: ['/spec/a', '/spec/b'][i]})
//	  : []
//	)[0])[0])[0])[0]
//
// The apiserver's CEL has no cel.bind, so a value is named with a
// comprehension over a list of one element ([v].map(x, ...)[0]): n is the
// new node, o the old one ({} on create or where it was absent), s says
// which members are set in n, a which of them were not set in o (added);
// an absent or null discriminator reads as "", and a member whose zero
// value reads as unset is tested with "!(n[?'m'].orValue(null) in
// jsonZeros)".
// Objects are plain JSON maps there (admission.LazyObject), so a
// property is read as x[?'name'], absent or null alike, and no name
// needs CEL's escaping. The three branches are the rules of 11.7: the
// discriminator changed; exactly one member set; exactly one member
// added. Every operation is a constant number of lookups on a list of
// as many elements as the union has members.
func normalizeExpression(node decl.Path, u decl.Union) string {
	var b strings.Builder
	b.WriteString("// KEP-1027 normalization of the union on " + node.String() + ": " + describe(u) + "\n")
	newNode, oldNode := nodeValues(node)
	if len(node) > 0 {
		b.WriteString("!(" + presentObject("object", node) + ") ? [] :\n")
	}
	b.WriteString("[" + newNode + "].map(n,\n")
	b.WriteString("[" + oldNode + "].map(o,\n")
	b.WriteString(unionBody(u, constPointer(node)))
	b.WriteString(")[0])[0]")
	return b.String()
}

// unionBody is the list of patches that normalize u on the object n
// against the old object o, n's JSON pointer being at: the lists s and a,
// and the rules of 11.7 over them.
func unionBody(u decl.Union, at pointerAt) string {
	l := listsOf(at, u)
	var b strings.Builder
	b.WriteString("[" + l.setNew + "].map(s,\n")
	b.WriteString("[" + l.added + "].map(a,\n")
	if u.Discriminator == "" {
		b.WriteString(l.addedRule())
	} else {
		b.WriteString(l.discriminatedRules(at, u))
	}
	b.WriteString(")[0])[0]")
	return b.String()
}

// pointerAt is the JSON pointer of the node a union is normalized on:
// a constant where no entry lies on the way, else a CEL string
// expression (a variable) that the walk over the entries computes.
type pointerAt struct {
	constant string
	expr     string // "" where the pointer is constant
}

func constPointer(node decl.Path) pointerAt {
	return pointerAt{constant: strings.TrimSuffix(pointer(node, ""), "/")}
}

// member is the CEL string of the pointer of property name below at.
func (at pointerAt) member(name string) string {
	if at.expr == "" {
		return celString(at.constant + "/" + escapePointer(name))
	}
	return at.expr + " + " + celString("/"+escapePointer(name))
}

// memberLists are the CEL lists over a union's members the normalization
// indexes, the element at i being member i's: its index, its JSON
// pointer, whether it is set in n, whether it was added (set in n, not
// in o).
type memberLists struct {
	idx, paths, setNew, added string
}

func listsOf(at pointerAt, u decl.Union) memberLists {
	k := len(u.Members)
	idx := make([]string, k)
	paths := make([]string, k)
	setNew := make([]string, k)
	added := make([]string, k)
	for i, m := range u.Members {
		idx[i] = strconv.Itoa(i)
		paths[i] = at.member(m.Name)
		if u.ZeroUnset(m.Name) {
			// Unset also at the zero value of its JSON type, whatever
			// the schema says: admission sees the object before
			// validation, and no value is read as another type.
			setNew[i] = "!(n[?" + celString(m.Name) + "].orValue(null) in " + jsonZeros + ")"
			added[i] = fmt.Sprintf("s[%d] && o[?%s].orValue(null) in %s", i, celString(m.Name), jsonZeros)
			continue
		}
		setNew[i] = "n[?" + celString(m.Name) + "].orValue(null) != null"
		added[i] = fmt.Sprintf("s[%d] && o[?%s].orValue(null) == null", i, celString(m.Name))
	}
	return memberLists{idx: list(idx), paths: list(paths), setNew: list(setNew), added: list(added)}
}

// jsonZeros lists null and the zero value of each JSON type: CEL's ==
// between values of two types is false, so "x in jsonZeros" says that x
// is null or the zero of its own type.
const jsonZeros = "[dyn(null), dyn(''), dyn(0), dyn(false), dyn([]), dyn({})]"

// remove is the patches that remove the members for which cond holds, i
// being the member's index.
func (l memberLists) remove(cond string) string {
	return l.idx + ".filter(i, " + cond + ").map(i, JSONPatch{op: 'remove', path: " + l.paths + "[i]})"
}

// addedRule is the rule of 11.7 for a union without a discriminator:
// exactly one member added clears the other set members.
func (l memberLists) addedRule() string {
	return "  a.exists_one(x, x)\n" +
		"  ? " + l.remove("s[i] && !a[i]") + "\n" +
		"  : []\n"
}

// discriminatedRules are the rules of 11.7 for a union with a
// discriminator, in order: a changed discriminator clears the set members
// its value does not select; else exactly one member set gives the
// discriminator its value; else exactly one member added gives it its
// value and clears the other set members.
func (l memberLists) discriminatedRules(at pointerAt, u decl.Union) string {
	values := make([]string, len(u.Members))
	for i, m := range u.Members {
		values[i] = celString(m.Value)
	}
	valueList := list(values)
	d := "n[?" + celString(u.Discriminator) + "].orValue(dyn(null))"
	od := "o[?" + celString(u.Discriminator) + "].orValue(dyn(null))"
	// An absent or null discriminator reads as "" (semantics.md 11.3):
	// from absent to "" is no change.
	changed := "!(" + d + " in [dyn(null), dyn('')] && " + od + " in [dyn(null), dyn('')]) && " + d + " != " + od
	setD := func(which string) string {
		v := valueList + "[" + which + ".indexOf(true)]"
		return "(" + d + " == " + v + " ? [] : [JSONPatch{op: 'add', path: " + at.member(u.Discriminator) + ", value: " + v + "}])"
	}
	return "  " + changed + "\n" +
		"  ? " + l.remove("s[i] && "+d+" != "+valueList+"[i]") + "\n" +
		"  : s.exists_one(x, x)\n" +
		"  ? " + setD("s") + "\n" +
		"  : a.exists_one(x, x)\n" +
		"  ? " + setD("a") + "\n" +
		"    + " + l.remove("s[i] && !a[i]") + "\n" +
		"  : []\n"
}

// nodeValues are the expressions of the new node, known to be an
// object, and of the old one, {} where it is not an object.
func nodeValues(node decl.Path) (newNode, oldNode string) {
	if len(node) == 0 {
		return "object", "type(oldObject) == map ? oldObject : {}"
	}
	return access("object", node), "type(oldObject) == map && " + presentObject("oldObject", node) + " ? " + access("oldObject", node) + " : {}"
}

// presentObject says that every step of node is present below root and
// an object: 'spec' in object && type(object['spec']) == map && ...
func presentObject(root string, node decl.Path) string {
	var parts []string
	x := root
	for _, s := range node {
		parts = append(parts, celString(s.Name)+" in "+x)
		x += "[" + celString(s.Name) + "]"
		parts = append(parts, "type("+x+") == map")
	}
	return strings.Join(parts, " && ")
}

func access(root string, node decl.Path) string {
	for _, s := range node {
		root += "[" + celString(s.Name) + "]"
	}
	return root
}

func list(items []string) string { return "[" + strings.Join(items, ", ") + "]" }

// describe names the union's discriminator and members for the comment
// line of its expression.
func describe(u decl.Union) string {
	names := make([]string, len(u.Members))
	for i, m := range u.Members {
		names[i] = commentName(m.Name)
	}
	s := "members " + strings.Join(names, ", ")
	if u.Discriminator != "" {
		s = "discriminator " + commentName(u.Discriminator) + ", " + s
	}
	return s
}

// commentName writes a property name as decl.Path does, which quotes
// any name that is not letters, digits, _ and -, so that a name cannot
// end the comment line.
func commentName(name string) string {
	return strings.TrimPrefix(decl.Path{{Name: name}}.String(), ".")
}

// pointer is the RFC 6901 JSON pointer of property name of node.
func pointer(node decl.Path, name string) string {
	var b strings.Builder
	for _, s := range node {
		b.WriteString("/" + escapePointer(s.Name))
	}
	return b.String() + "/" + escapePointer(name)
}

func escapePointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// celString is a CEL string literal of s: in single quotes where s is
// printable and holds no quote or backslash, else in Go's double-quoted
// form, whose escapes (\n, \x.., \u....) CEL reads the same way.
func celString(s string) string {
	for _, r := range s {
		if r == '\'' || r == '\\' || !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return "'" + s + "'"
}
