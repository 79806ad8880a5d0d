package ruleshape

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/decl"
)

// readTransitions reads every conjunct of a rule as transitions, for the
// table: "target:constraints[+set][+unset][?conditional][~null]", sorted
// as found; "unread" when a conjunct reads oldSelf in no known way.
func readTransitions(t *testing.T, rule string, onNode, optional bool) string {
	t.Helper()
	p, ok := Parse(rule)
	if !ok {
		t.Fatalf("%q does not parse", rule)
	}
	var out []string
	for _, conj := range conjuncts(p.expr) {
		if !readsOld(conj) {
			continue // read as a union shape, or not at all
		}
		trs, ok := transitions(p, conj, onNode, optional)
		if !ok {
			out = append(out, "unread")
			continue
		}
		for _, tr := range trs {
			s := strings.Join(tr.Steps, ".") + ":" + tr.Certain.String()
			if tr.AllowsSet {
				s += "+set"
			}
			if tr.AllowsUnset {
				s += "+unset"
			}
			if tr.Conditional != 0 {
				s += "?" + tr.Conditional.String()
			}
			if tr.NullGuard {
				s += "~null"
			}
			out = append(out, s)
		}
	}
	return strings.Join(out, " ")
}

func TestTransitionShapes(t *testing.T) {
	for _, tc := range []struct {
		rule     string
		onNode   bool
		optional bool
		want     string
	}{
		// On the field itself: only a change of value is seen.
		{rule: "self == oldSelf", onNode: true, want: ":[NoModify]"},
		{rule: "oldSelf == self", onNode: true, want: ":[NoModify]"},
		{rule: "oldSelf == null || self == oldSelf", onNode: true, want: ":[NoModify]~null"},
		// An empty value counts as absent: it may go, so NoUnset holds
		// only when it is not empty (mut2cel's own rule for keys that
		// only grow).
		{rule: "!has(oldSelf.x) || size(oldSelf.x) == 0 || has(self.x)", want: "x:[]+set?[NoUnset]"},
		{rule: "!oldSelf.hasValue() || self == oldSelf.value()", onNode: true, optional: true, want: ":[NoModify]+set~null"},
		// On a parent, speaking of x.
		{rule: "self.x == oldSelf.x", want: "x:[NoSet, NoUnset, NoModify]"},
		{rule: "self.a.b == oldSelf.a.b", want: "a.b:[NoSet, NoUnset, NoModify]"},
		{rule: "self.name == oldSelf.name && self.__namespace__ == oldSelf.__namespace__",
			want: "name:[NoSet, NoUnset, NoModify] namespace:[NoSet, NoUnset, NoModify]"},
		{rule: "has(self.x) == has(oldSelf.x)", want: "x:[NoSet, NoUnset]"},
		{rule: "has(oldSelf.x) == has(self.x)", want: "x:[NoSet, NoUnset]"},
		{rule: "self.?x == oldSelf.?x", want: "x:[NoSet, NoUnset, NoModify]"},
		{rule: "oldSelf.?a.?b == self.?a.?b", want: "a.b:[NoSet, NoUnset, NoModify]"},
		{rule: "!has(oldSelf.x) || self.?x == oldSelf.?x", want: "x:[NoUnset, NoModify]+set"},
		{rule: "(has(self.x) && has(oldSelf.x)) || (!has(self.x) && !has(oldSelf.x))", want: "x:[NoSet, NoUnset]"},
		// Set once, in its spellings.
		{rule: "!has(oldSelf.x) || has(self.x)", want: "x:[NoUnset]+set"},
		{rule: "has(oldSelf.x) ? has(self.x) : true", want: "x:[NoUnset]+set"},
		{rule: "!(has(oldSelf.x) && !has(self.x))", want: "x:[NoUnset]+set"},
		{rule: "!has(oldSelf.x) || (has(self.x) && self.x == oldSelf.x)", want: "x:[NoUnset, NoModify]+set"},
		{rule: "!has(oldSelf.x) || self.x == oldSelf.x", want: "x:[NoUnset, NoModify]+set"},
		{rule: "!has(oldSelf.x) || !has(self.x) || oldSelf.x == self.x", want: "x:[NoModify]+set+unset"},
		// Similar-looking rules that are no immutability.
		{rule: "self == oldSelf || oldSelf != 'Active'", onNode: true, want: ":[]?[NoModify]"},
		{rule: "self != oldSelf", onNode: true, want: "unread"},
		{rule: "self.replicas >= oldSelf.replicas", want: "unread"},
		{rule: "has(oldSelf.status) && oldSelf.status.phase == 'Ready' ? self.x == oldSelf.x : true",
			want: "x:[]?[NoSet, NoUnset, NoModify]"},
		{rule: "self.x == oldSelf.x || self.force", want: "x:[]?[NoSet, NoUnset, NoModify]"},
		{rule: "has(self.x) && self.x == oldSelf.x", want: "x:[NoSet, NoUnset, NoModify]"},
		{rule: "has(self.x) && has(oldSelf.x)", want: "unread"},
		{rule: "oldSelf.x <= self.x", want: "unread"},
		// The root is no target.
		{rule: "self == oldSelf", onNode: false, want: "unread"},
	} {
		if got := readTransitions(t, tc.rule, tc.onNode, tc.optional); got != tc.want {
			t.Errorf("transitions(%q) = %q, want %q", tc.rule, got, tc.want)
		}
	}
}

func TestCollectionShapes(t *testing.T) {
	for _, tc := range []struct {
		rule, want string
	}{
		{"oldSelf.all(x, x in self)", ":[NoRemoveItem] member"},
		{"self.all(x, x in oldSelf)", ":[NoAddItem] member"},
		{"oldSelf.items.all(x, x in self.items)", "items:[NoRemoveItem] member"},
		{"oldSelf.all(k, k in self && self[k] == oldSelf[k])", ":[NoRemoveItem] value"},
		{"oldSelf.all(x, self.exists(y, y.name == x.name))", ":[NoRemoveItem] key name"},
		{"size(self) >= size(oldSelf)", ":[NoRemoveItem] size"},
		{"oldSelf.size() <= self.size()", ":[NoRemoveItem] size"},
		{"self.size() == oldSelf.size()", ":[NoAddItem, NoRemoveItem] size"},
		// Not a collection shape.
		{"self.all(x, x in self)", "none"},
		{"oldSelf.all(x, x.name != '')", "none"},
		{"oldSelf.all(x, self.exists(y, y.name == x.other))", "none"},
		{"size(self) > size(oldSelf)", "none"},
	} {
		p, ok := Parse(tc.rule)
		if !ok {
			t.Fatalf("%q does not parse", tc.rule)
		}
		got := "none"
		if s, ok := collectionShape(p.expr); ok {
			got = strings.Join(s.Steps, ".") + ":" + s.Keep.String() + " " +
				map[Comparison]string{ByMember: "member", ByKey: "key " + s.Key, ByValue: "value", BySize: "size"}[s.By]
		}
		if got != tc.want {
			t.Errorf("collectionShape(%q) = %q, want %q", tc.rule, got, tc.want)
		}
	}
}

func TestUnionShapes(t *testing.T) {
	for _, tc := range []struct {
		rule, want string
	}{
		{"!has(self.a) || !has(self.b)", "at most a,b"},
		{"!(has(self.a) && has(self.b))", "at most a,b"},
		{"has(self.a) != has(self.b)", "exactly a,b counted"},
		{"(has(self.a) && !has(self.b)) || (!has(self.a) && has(self.b))", "exactly a,b counted"},
		{"has(self.a) || has(self.b)", "at least a,b"},
		{"[has(self.a), has(self.b), has(self.c)].filter(x, x).size() <= 1", "at most a,b,c counted"},
		{"[has(self.a),has(self.b)].filter(x,x==true).size() == 1", "exactly a,b counted"},
		{"size([has(self.a), has(self.b)].filter(x, x)) < 2", "at most a,b counted"},
		{"(has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0) + (has(self.c) ? 1 : 0) <= 1", "at most a,b,c counted"},
		{"1 >= (has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0)", "at most a,b counted"},
		{"[has(self.a), has(self.b)].exists_one(x, x)", "exactly a,b counted"},
		{`!(has(self.a) && size(self.a) > 0 && has(self.b) && self.b != "")`, "at most a,b empty"},
		// Ties to a discriminator.
		{"self.type == 'A' ? has(self.a) : !has(self.a)", "tie a type=A only required discRequired"},
		{"!(has(self.a) && self.type != 'A')", "tie a type=A only"},
		{"!(!has(self.a) && self.type == 'A')", "tie a type=A required discRequired"},
		{"self.type != 'A' || has(self.a)", "tie a type=A required discRequired"},
		{"!has(self.a) || (has(self.mode) && self.mode == 'A')", "tie a mode=A only"},
		{"has(self.mode) ? (self.mode == 'A' ? has(self.a) : !has(self.a)) : !has(self.a)", "tie a mode=A only required"},
		// Similar-looking rules that are no union.
		{"!has(self.a) || has(self.b)", "none"},
		{"has(self.a) == has(self.b)", "none"},
		{"!(has(self.mode) && self.mode == 'DaemonSet' && has(self.replicas))", "none"},
		{"!(has(self.a) && has(self.b) && self.a > 1)", "none"},
		{"(size(self.group) == 0 && self.kind == 'Service') ? has(self.port) : true", "none"},
		{"has(self.a.b) != has(self.c)", "none"},
		{"[has(self.a), has(self.b)].filter(x, x).size() >= 2", "none"},
	} {
		p, ok := Parse(tc.rule)
		if !ok {
			t.Fatalf("%q does not parse", tc.rule)
		}
		got := "none"
		if ch, ok := unionShape(p, p.expr); ok {
			got = describeChoice(ch)
		}
		if got != tc.want {
			t.Errorf("unionShape(%q) = %q, want %q", tc.rule, got, tc.want)
		}
	}
}

func describeChoice(ch Choice) string {
	if g := ch.Group; g != nil {
		s := map[Cardinality]string{AtMostOne: "at most", ExactlyOne: "exactly", AtLeastOne: "at least"}[g.Card] + " " + strings.Join(g.Members, ",")
		if g.Counted {
			s += " counted"
		}
		if g.EmptyAsUnset {
			s += " empty"
		}
		return s
	}
	tt := ch.Tie
	s := fmt.Sprintf("tie %s %s=%s", tt.Member, tt.Disc, tt.Value)
	for _, f := range []struct {
		on   bool
		word string
	}{{tt.OnlyWhen, "only"}, {tt.RequiredWhen, "required"}, {tt.DiscRequired, "discRequired"}} {
		if f.on {
			s += " " + f.word
		}
	}
	return s
}

// TestRuleParsesOrIsSkipped checks that text that is no CEL is skipped,
// and that a rule over the length bound is not parsed.
func TestRuleParsesOrIsSkipped(t *testing.T) {
	for _, rule := range []string{"", "self ==", "has(", strings.Repeat("(", 5000) + "self"} {
		if _, ok := Parse(rule); ok {
			t.Errorf("Parse(%.20q) parsed", rule)
		}
	}
	if c := decl.Of(decl.NoModify); forbids[modified] != decl.NoModify || c.String() != "[NoModify]" {
		t.Errorf("forbids[modified] = %v", forbids[modified])
	}
}
