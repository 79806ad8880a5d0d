package policy

import "testing"

func TestForPlainValues(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"self.a == oldSelf.a", "self.a == oldSelf.a"},
		{"self.a__dash__b == oldSelf.a__dash__b", `self["a-b"] == oldSelf["a-b"]`},
		{"self.__namespace__ == oldSelf.__namespace__", `self["namespace"] == oldSelf["namespace"]`},
		{"!has(oldSelf.a) || has(self.a)", `!("a" in oldSelf && oldSelf.a != null) || "a" in self && self.a != null`},
		{"self.?a.?b__dot__c.?d.hasValue() == oldSelf.?a.?b__dot__c.?d.hasValue()",
			`("a" in self && self.a != null && "b.c" in self.a && self.a["b.c"] != null && "d" in self.a["b.c"] && self.a["b.c"].d != null) == ("a" in oldSelf && oldSelf.a != null && "b.c" in oldSelf.a && oldSelf.a["b.c"] != null && "d" in oldSelf.a["b.c"] && oldSelf.a["b.c"].d != null)`},
		{"self.all(k, !(k in oldSelf) || self[k] == oldSelf[k])", "self.all(k, !(k in oldSelf) || self[k] == oldSelf[k])"},
		{"oldSelf.all(e, self.exists(f, f.x__dot__y == e.x__dot__y))", `oldSelf.all(e, self.exists(f, f["x.y"] == e["x.y"]))`},
		{"type(self.a) == null_type || size(self.a) >= size(oldSelf.a)", "type(self.a) == null_type || size(self.a) >= size(oldSelf.a)"},
	} {
		got, err := forPlainValues(tc.in, "self", "oldSelf")
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}
