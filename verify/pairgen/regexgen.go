package pairgen

import (
	"math/rand"
	"regexp"
	"regexp/syntax"
	"strings"
)

// patternSamples draws up to n distinct short strings that match pattern,
// so that generated values pass the schema's pattern validation. It walks
// the parsed expression and picks a branch, a repetition count and a
// character at random; every sample is checked with the real matcher, so
// an expression the walk renders imperfectly only costs samples.
func patternSamples(pattern string, rnd *rand.Rand, n int) []string {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil
	}
	parsed, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	parsed = parsed.Simplify()
	seen := map[string]bool{}
	var out []string
	for try := 0; try < 40*n && len(out) < n; try++ {
		var b strings.Builder
		sample(&b, parsed, rnd)
		s := b.String()
		if !seen[s] && re.MatchString(s) {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func sample(b *strings.Builder, re *syntax.Regexp, rnd *rand.Rand) {
	switch re.Op {
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		b.WriteRune(classRune(re.Rune, rnd))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte(byte('a' + rnd.Intn(3)))
	case syntax.OpCapture:
		sample(b, re.Sub[0], rnd)
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			sample(b, sub, rnd)
		}
	case syntax.OpAlternate:
		sample(b, re.Sub[rnd.Intn(len(re.Sub))], rnd)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		for i := repeatCount(re, rnd); i > 0; i-- {
			sample(b, re.Sub[0], rnd)
		}
	}
	// Anchors, word boundaries and empty matches write nothing.
}

// repeatCount keeps repetitions short: values stay small and collide often.
func repeatCount(re *syntax.Regexp, rnd *rand.Rand) int {
	lo, hi := 0, 2
	switch re.Op {
	case syntax.OpPlus:
		lo, hi = 1, 3
	case syntax.OpQuest:
		lo, hi = 0, 1
	case syntax.OpRepeat:
		lo, hi = re.Min, re.Max
		if hi < 0 || hi > lo+2 {
			hi = lo + 2
		}
	}
	return lo + rnd.Intn(hi-lo+1)
}

// classRune picks a character of a class, preferring printable ASCII.
func classRune(ranges []rune, rnd *rand.Rand) rune {
	var ascii [][2]rune
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := max(ranges[i], ' '), min(ranges[i+1], '~')
		if lo <= hi {
			ascii = append(ascii, [2]rune{lo, hi})
		}
	}
	if len(ascii) > 0 {
		r := ascii[rnd.Intn(len(ascii))]
		return r[0] + rune(rnd.Intn(int(r[1]-r[0])+1))
	}
	if len(ranges) < 2 {
		return 'a'
	}
	i := 2 * rnd.Intn(len(ranges)/2)
	return ranges[i] + rune(rnd.Intn(int(min(ranges[i+1]-ranges[i], 255))+1))
}
