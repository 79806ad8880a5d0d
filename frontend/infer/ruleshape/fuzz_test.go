package ruleshape

import (
	"testing"
)

// FuzzRule reads untrusted rule text with every reader of shapes.
func FuzzRule(f *testing.F) {
	for _, s := range []string{
		"self == oldSelf", "!has(oldSelf.x) || (has(self.x) && self.x == oldSelf.x)",
		"oldSelf.all(x, x in self)", "[has(self.a), has(self.b)].filter(x, x).size() <= 1",
		"(has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0) == 1", "self.type == 'A' ? has(self.a) : !has(self.a)",
		"oldSelf.?x.orValue('') == self.x", "self.__namespace__ == oldSelf.__namespace__", "has(",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rule string) {
		p, ok := Parse(rule)
		if !ok {
			return
		}
		for _, part := range p.Parts() {
			part.Collection()
			part.Transitions(true, true)
			part.Union()
		}
	})
}
