package reference

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// formatValue reads a stored string of format date-time, duration or byte
// as the value the apiserver's CEL sees (semantics.md 8), in a form that
// is equal for two strings exactly when their values are: an instant, a
// count of nanoseconds, a byte string. ok is false where the apiserver
// stores the string but its CEL cannot read it. The readings are written
// here from the formats' definitions, apart from the apiserver's code;
// formatvalue_test.go holds them to the apiserver's CEL on a table of
// spellings. Strings the write validation refuses are never stored, and
// what is returned for them does not matter.
func formatValue(format, s string) (string, bool) {
	switch format {
	case "date-time":
		return dateTimeValue(s)
	case "duration":
		return durationValue(s)
	case "byte":
		return bytesValue(s)
	}
	return s, true
}

// dateTimeValue reads RFC 3339 as CEL does: 2006-01-02T15:04:05, an
// optional fraction (a period or comma, then digits, of which the first
// nine count), and Z or an offset ±hh:mm of at most 24 hours and 60
// minutes. The write validation lowercases the string and splits it at
// "t" before checking it, so it also stores a lowercase t or z and text
// after a second t, none of which CEL reads.
func dateTimeValue(s string) (string, bool) {
	if len(s) < len("2006-01-02T15:04:05Z") || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return "", false
	}
	year, ok1 := digits(s[0:4])
	month, ok2 := digits(s[5:7])
	day, ok3 := digits(s[8:10])
	hour, ok4 := digits(s[11:13])
	minute, ok5 := digits(s[14:16])
	sec, ok6 := digits(s[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || month < 1 || month > 12 || day < 1 ||
		day > daysInMonth(year, month) || hour > 23 || minute > 59 || sec > 59 {
		return "", false
	}
	rest := s[19:]
	nsec := 0
	if len(rest) >= 2 && (rest[0] == '.' || rest[0] == ',') && isDigit(rest[1]) {
		n := 1
		for n < len(rest) && isDigit(rest[n]) {
			n++
		}
		frac := rest[1:n]
		if len(frac) > 9 {
			frac = frac[:9]
		}
		frac += strings.Repeat("0", 9-len(frac))
		nsec, _ = strconv.Atoi(frac)
		rest = rest[n:]
	}
	offset := 0
	switch {
	case rest == "Z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, okh := digits(rest[1:3])
		om, okm := digits(rest[4:6])
		if !okh || !okm || oh > 24 || om > 60 {
			return "", false
		}
		offset = oh*3600 + om*60
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return "", false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC).Add(-time.Duration(offset) * time.Second)
	return fmt.Sprintf("%d.%09d", t.Unix(), t.Nanosecond()), true
}

func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func daysInMonth(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// durationUnits are the words of the second reading of a duration, by
// group: a unit is a group's when it equals one of its words, letter case
// aside, or begins with its last (hours, minutes, seconds).
var durationUnits = []struct {
	words []string
	each  time.Duration
}{
	{[]string{"ns", "nano"}, time.Nanosecond},
	{[]string{"us", "µs", "micro"}, time.Microsecond},
	{[]string{"ms", "milli"}, time.Millisecond},
	{[]string{"s", "sec"}, time.Second},
	{[]string{"m", "min"}, time.Minute},
	{[]string{"h", "hr", "hour"}, time.Hour},
	{[]string{"d", "day"}, 24 * time.Hour},
	{[]string{"w", "wk", "week"}, 7 * 24 * time.Hour},
}

// durationValue reads a duration as CEL does (and as the write
// validation, so every stored duration reads): Go's syntax (1h30m, 1.5h,
// -2s), or else every "number unit" in the text (1 hour 30 minutes, 2d),
// summed, the rest of the text ignored.
func durationValue(s string) (string, bool) {
	if d, err := time.ParseDuration(s); err == nil {
		return strconv.FormatInt(int64(d), 10), true
	}
	var sum time.Duration
	matched := false
	for _, term := range durationTerms(s) {
		n, err := strconv.Atoi(term[0])
		if err != nil {
			return "", false
		}
		unit := strings.ToLower(term[1])
		for _, u := range durationUnits {
			last := len(u.words) - 1
			for i, w := range u.words {
				if strings.EqualFold(w, unit) || i == last && strings.HasPrefix(unit, w) {
					matched = true
					sum += time.Duration(n) * u.each
				}
			}
		}
	}
	if !matched {
		return "", false
	}
	return strconv.FormatInt(int64(sum), 10), true
}

// durationTerms finds, left to right, each run of ASCII digits followed by
// optional white space and a run of ASCII letters or µ, as number and unit.
func durationTerms(s string) [][2]string {
	var out [][2]string
	rs := []rune(s)
	for i := 0; i < len(rs); {
		if !isDigitRune(rs[i]) {
			i++
			continue
		}
		j := i
		for j < len(rs) && isDigitRune(rs[j]) {
			j++
		}
		k := j
		for k < len(rs) && isSpaceRune(rs[k]) {
			k++
		}
		l := k
		for l < len(rs) && isUnitRune(rs[l]) {
			l++
		}
		if l == k {
			// No unit: the digits start no term. The search goes on
			// from the next character, as a leftmost regexp match
			// does, so that in "12" the "2" is tried too.
			i++
			continue
		}
		out = append(out, [2]string{string(rs[i:j]), string(rs[k:l])})
		i = l
	}
	return out
}

func isDigitRune(r rune) bool { return '0' <= r && r <= '9' }

func isSpaceRune(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r'
}

func isUnitRune(r rune) bool {
	return r < unicode.MaxASCII && ('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') || r == 'µ'
}

// bytesValue decodes base64 as CEL does: the URL alphabet (- and _ for
// + and /), padding with =, and the bits after the last whole byte
// ignored, so YQ== and YR== are one byte. The write validation takes
// the standard alphabet, so a stored string with + or / does not read.
func bytesValue(s string) (string, bool) {
	if len(s)%4 != 0 {
		return "", false
	}
	var out []byte
	for q := 0; q < len(s); q += 4 {
		quad := s[q : q+4]
		pad := len(quad) - len(strings.TrimRight(quad, "="))
		if pad > 2 || pad > 0 && q+4 != len(s) {
			return "", false
		}
		var bits uint32
		for i := 0; i < 4-pad; i++ {
			v, ok := urlSextet(quad[i])
			if !ok {
				return "", false
			}
			bits |= uint32(v) << (18 - 6*i)
		}
		b := []byte{byte(bits >> 16), byte(bits >> 8), byte(bits)}
		out = append(out, b[:3-pad]...)
	}
	return string(out), true
}

func urlSextet(c byte) (byte, bool) {
	switch {
	case 'A' <= c && c <= 'Z':
		return c - 'A', true
	case 'a' <= c && c <= 'z':
		return c - 'a' + 26, true
	case '0' <= c && c <= '9':
		return c - '0' + 52, true
	case c == '-':
		return 62, true
	case c == '_':
		return 63, true
	}
	return 0, false
}
