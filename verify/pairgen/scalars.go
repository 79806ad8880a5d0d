package pairgen

import (
	"math"
	"math/rand"
	"regexp"
	"strings"
	"unicode/utf8"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
)

// poolSize bounds the distinct scalars of one node: few values make equal
// old and new values, and so the interesting updates, frequent.
const poolSize = 4

// scalarPool lists the values a scalar (or untyped) node takes: its enum,
// or a few small values that satisfy its type, format, bounds and pattern.
func scalarPool(s *schema.Structural, rnd *rand.Rand) []interface{} {
	vv := s.ValueValidation
	if vv != nil && len(vv.Enum) > 0 {
		out := make([]interface{}, len(vv.Enum))
		for i, e := range vv.Enum {
			out[i] = e.Object
		}
		return out
	}
	if vv == nil {
		vv = &schema.ValueValidation{}
	}
	switch {
	case s.XIntOrString && vv.Pattern == "" && vv.Format == "":
		return []interface{}{int64(1), "a", int64(2), "b"}
	case s.XIntOrString:
		// A pattern or format constrains the strings only, as for a
		// resource quantity: numbers pass them.
		strs := stringPool(vv, rnd)
		return []interface{}{int64(1), strs[0], int64(2), strs[len(strs)-1]}
	case s.Type == "":
		return []interface{}{"a", int64(1), true, map[string]interface{}{"a": "b"}, []interface{}{"a"}}
	case s.Type == "boolean":
		return []interface{}{false, true}
	case s.Type == "integer":
		return integerPool(vv)
	case s.Type == "number":
		return numberPool(vv)
	}
	return stringPool(vv, rnd)
}

func integerPool(vv *schema.ValueValidation) []interface{} {
	lo, hi := math.Inf(-1), math.Inf(1)
	switch vv.Format {
	case "int32":
		lo, hi = math.MinInt32, math.MaxInt32
	}
	var cands []float64
	cands = append(cands, 0, 1, 2, -1, 3)
	if vv.Minimum != nil {
		cands = append(cands, math.Ceil(*vv.Minimum), math.Ceil(*vv.Minimum)+1)
	}
	if vv.Maximum != nil {
		cands = append(cands, math.Floor(*vv.Maximum), math.Floor(*vv.Maximum)-1)
	}
	if vv.MultipleOf != nil {
		cands = append(cands, *vv.MultipleOf, 2**vv.MultipleOf)
	}
	var out []interface{}
	for _, c := range cands {
		if c >= lo && c <= hi && c >= -(1<<53) && c <= 1<<53 && inNumericBounds(vv, c) && !containsValue(out, int64(c)) {
			out = append(out, int64(c))
		}
	}
	return firstN(out, poolSize)
}

// numberPool mixes integers and fractions, as JSON clients send both: 1
// and 1.0 are one value in two spellings (an integer and a float once
// decoded, as the apiserver decodes a request), and 0.1234561 and
// 0.1234562 differ only past the sixth decimal.
func numberPool(vv *schema.ValueValidation) []interface{} {
	cands := []interface{}{int64(1), 1.0, 0.1234561, 0.1234562, 1.5, int64(2), 0.5, int64(0), -1.5}
	if vv.Minimum != nil {
		cands = append(cands, *vv.Minimum+0.5)
	}
	if vv.Maximum != nil {
		cands = append(cands, *vv.Maximum-0.5)
	}
	if vv.MultipleOf != nil {
		cands = append(cands, *vv.MultipleOf, 3**vv.MultipleOf)
	}
	var out []interface{}
	for _, c := range cands {
		f, _ := jsonvalue.NumberOf(c)
		if inNumericBounds(vv, f.Float()) && !containsValue(out, c) {
			out = append(out, c)
		}
	}
	return firstN(out, poolSize)
}

func inNumericBounds(vv *schema.ValueValidation, c float64) bool {
	switch {
	case vv.Minimum != nil && (c < *vv.Minimum || vv.ExclusiveMinimum && c == *vv.Minimum):
		return false
	case vv.Maximum != nil && (c > *vv.Maximum || vv.ExclusiveMaximum && c == *vv.Maximum):
		return false
	case vv.MultipleOf != nil && *vv.MultipleOf > 0:
		q := c / *vv.MultipleOf
		return q == math.Trunc(q)
	}
	return true
}

// formatSamples are values the apiserver's format validation accepts. The
// formats its CEL reads as other types (semantics.md 8) also get strings
// that differ as stored but not as CEL values, and strings CEL cannot
// convert: 2026-01-01T01:00:00+01:00 and 2026-01-01t00:00:00z are
// 2026-01-01T00:00:00Z, 60m and 3600s are 1h, YR== is YQ==, and CEL reads
// neither 2026-01-01t00:00:00z nor +/8=.
var formatSamples = map[string][]string{
	"byte":         {"YQ==", "YR==", "+/8=", "Yg=="},
	"date-time":    {"2026-01-01T00:00:00Z", "2026-01-01T01:00:00+01:00", "2026-01-01t00:00:00z", "2026-01-02T00:00:00.5+01:00"},
	"datetime":     {"2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"},
	"date":         {"2026-01-01", "2026-01-02"},
	"duration":     {"1h", "60m", "3600s", "2m"},
	"email":        {"a@example.com", "b@example.com"},
	"hostname":     {"a", "b.example", "c-d.example"},
	"ipv4":         {"10.0.0.1", "192.168.0.1"},
	"ipv6":         {"::1", "fd00::1"},
	"cidr":         {"10.0.0.0/8", "192.168.0.0/16"},
	"mac":          {"00:00:5e:00:53:01", "00:00:5e:00:53:02"},
	"uri":          {"https://a.example/", "https://b.example/x"},
	"uuid":         {"00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"},
	"uuid3":        {"bcd02e22-68f0-3046-a512-327cca9def8f"},
	"uuid4":        {"00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"},
	"uuid5":        {"a0c1fe4c-f6bb-5d3a-b3a4-1c9a2e6a1d4b"},
	"bsonobjectid": {"507f1f77bcf86cd799439011", "507f1f77bcf86cd799439012"},
	"isbn":         {"0306406152"},
	"isbn10":       {"0306406152"},
	"isbn13":       {"9780306406157"},
	"creditcard":   {"4111111111111111"},
	"ssn":          {"123-45-6789"},
	"hexcolor":     {"#ffffff", "#000000"},
	"rgbcolor":     {"rgb(0,0,0)", "rgb(1,2,3)"},
}

// stringPool draws strings from a three-letter alphabet, a format's
// samples or a pattern's samples, stretched or cut to the length bounds.
func stringPool(vv *schema.ValueValidation, rnd *rand.Rand) []interface{} {
	cands := []string{"a", "b", "c"}
	switch {
	case formatSamples[vv.Format] != nil:
		cands = formatSamples[vv.Format]
	case vv.Pattern != "":
		cands = append(patternSamples(vv.Pattern, rnd, poolSize), cands...)
	}
	var re *regexp.Regexp
	if vv.Pattern != "" {
		re, _ = regexp.Compile(vv.Pattern)
	}
	var out []interface{}
	for _, c := range cands {
		c = fitLength(c, vv.MinLength, vv.MaxLength)
		if (re == nil || re.MatchString(c)) && lengthOK(c, vv) && !containsValue(out, c) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		out = append(out, fitLength("a", vv.MinLength, vv.MaxLength))
	}
	return firstN(out, poolSize)
}

// fitLength repeats a short string up to minLength and cuts it to
// maxLength (in characters, as the apiserver counts).
func fitLength(s string, minLen, maxLen *int64) string {
	if minLen != nil && s != "" {
		for int64(utf8.RuneCountInString(s)) < *minLen {
			s += s
		}
	}
	if minLen != nil && s == "" {
		s = strings.Repeat("a", int(*minLen))
	}
	if maxLen != nil && int64(utf8.RuneCountInString(s)) > *maxLen {
		s = string([]rune(s)[:*maxLen])
	}
	return s
}

func lengthOK(s string, vv *schema.ValueValidation) bool {
	n := int64(utf8.RuneCountInString(s))
	return (vv.MinLength == nil || n >= *vv.MinLength) && (vv.MaxLength == nil || n <= *vv.MaxLength)
}

// ObjectName returns def when it passes vv, the value validation of
// metadata.name, else a lowercase name that does (a DNS label, as object
// names must be), else def. Its pattern samples are drawn with a seed of
// their own, so the name depends on vv alone.
func ObjectName(vv *schema.ValueValidation, def string) string {
	cands := []string{def}
	if vv.Pattern != "" {
		if re, err := regexp.Compile(vv.Pattern); err == nil {
			for _, c := range patternSamples(vv.Pattern, rand.New(rand.NewSource(1)), 8) {
				if re.MatchString(c) && strings.ToLower(c) == c {
					cands = append(cands, c)
				}
			}
			for i, c := range cands {
				if !re.MatchString(c) {
					cands[i] = ""
				}
			}
		}
	}
	for _, c := range cands {
		c = fitLength(c, vv.MinLength, vv.MaxLength)
		if c != "" && lengthOK(c, vv) {
			return c
		}
	}
	return def
}

func containsValue(list []interface{}, v interface{}) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func firstN(list []interface{}, n int) []interface{} {
	if len(list) > n {
		return list[:n]
	}
	return list
}
