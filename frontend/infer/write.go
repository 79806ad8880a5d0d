package infer

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/frontend/infer/phrases"
	"github.com/mut2cel/mut2cel/internal/diag"
)

// WriteOptions tune the text Write gives.
type WriteOptions struct {
	// MaxQuote is the most characters an evidence quotes; 0 means
	// DefaultMaxQuote.
	MaxQuote int
	// Uncommented writes the doubtful proposals uncommented, to check that
	// they are declarations decl.ParseFile reads.
	Uncommented bool
}

// maxUnreadListed bounds the unread rules a document lists.
const maxUnreadListed = 10

// Write writes the results as a declarations file (decl.ParseFile reads
// it, translate --declarations takes it): for each CRD one document for
// the proposals that hold in every served version, and one for each
// other set of versions, with a versions list. Each field has its
// evidence as comments above it; a doubtful proposal is written
// commented out, saying why. A document with no sure proposal is written
// commented out whole. The text depends on the results only.
func Write(w io.Writer, results []*Result, opts WriteOptions) error {
	bw := bufio.NewWriter(w)
	wr := &writer{w: bw, opts: opts}
	if wr.opts.MaxQuote <= 0 {
		wr.opts.MaxQuote = DefaultMaxQuote
	}
	for _, r := range results {
		wr.result(r)
	}
	return bw.Flush()
}

type writer struct {
	w    *bufio.Writer
	opts WriteOptions
}

func (wr *writer) line(format string, args ...interface{}) {
	fmt.Fprintf(wr.w, format+"\n", args...)
}

// result writes the documents of one CRD.
func (wr *writer) result(r *Result) {
	wr.line("# %s: declarations proposed from what the CRD says (docs/infer.md).", diag.Printable(r.CRD))
	if r.Copied > 0 {
		wr.line("# Left out: %d %s copied from the documentation of Kubernetes' own types.", r.Copied, plural(r.Copied, "sentence", "sentences"))
	}
	for i, u := range r.Unread {
		if i == maxUnreadListed {
			wr.line("# ... and %d more transition rules not read.", len(r.Unread)-i)
			break
		}
		wr.line("# Not read: version %s, %s: rule %s", u.Version, u.At, wr.q(u.Text))
	}
	for _, group := range byVersions(r) {
		wr.document(r, group)
	}
}

// byVersions groups proposals by the versions they hold for: all served
// versions first, then the other sets in order.
func byVersions(r *Result) [][]*Proposal {
	all := strings.Join(r.Served, ",")
	groups := map[string][]*Proposal{}
	for _, p := range r.Proposals {
		k := strings.Join(p.Versions, ",")
		if k == all {
			k = ""
		}
		groups[k] = append(groups[k], p)
	}
	var out [][]*Proposal
	for _, k := range slices.Sorted(maps.Keys(groups)) {
		out = append(out, groups[k])
	}
	return out
}

// document writes one document; commented out whole when nothing in it
// is sure.
func (wr *writer) document(r *Result, ps []*Proposal) {
	sure := wr.opts.Uncommented
	for _, p := range ps {
		sure = sure || p.Doubt == ""
	}
	prefix := ""
	if !sure {
		prefix = "# "
		wr.line("# Nothing here is sure: the document is commented out.")
	}
	wr.line("%s---", prefix)
	wr.line("%sapiVersion: %s", prefix, decl.FileAPIVersion)
	wr.line("%skind: %s", prefix, decl.FileKind)
	wr.line("%scrd: %s", prefix, plainOrQuoted(r.CRD))
	if vs := ps[0].Versions; strings.Join(vs, ",") != strings.Join(r.Served, ",") {
		quoted := make([]string, len(vs))
		for i, v := range vs {
			quoted[i] = plainOrQuoted(v)
		}
		wr.line("%sversions: [%s]", prefix, strings.Join(quoted, ", "))
	}
	wr.line("%sfields:", prefix)
	for _, p := range ps {
		wr.proposal(prefix, p)
	}
}

// proposal writes one field: evidence, notes, and the declarations.
func (wr *writer) proposal(prefix string, p *Proposal) {
	for _, e := range p.Evidence {
		wr.line("  # %s", e.Describe(p.Path, wr.opts.MaxQuote))
	}
	for _, n := range p.Notes {
		wr.line("  # Note: %s", diag.Printable(n))
	}
	inner := prefix
	if p.Doubt != "" && !wr.opts.Uncommented {
		wr.line("  # Not sure, so commented out: %s", diag.Printable(p.Doubt))
		inner = "# "
	}
	wr.line("  %s%s:", inner, fieldKey(p.Path))
	for _, k := range decl.Extensions {
		if v, ok := p.Values[k]; ok {
			wr.line("  %s  %s: %s", inner, k, valueText(k, v))
		}
	}
}

// Describe says e on one line, as Write puts it above the proposal for
// field: the version, and the node that carries it when that is not
// field; the rule with its message, or the sentence, each quoted within
// maxQuote characters (0: DefaultMaxQuote); and what it was read as.
func (e Evidence) Describe(field decl.Path, maxQuote int) string {
	if maxQuote <= 0 {
		maxQuote = DefaultMaxQuote
	}
	where := "version " + e.Version
	if e.At.String() != field.String() {
		where += ", on " + e.At.String()
	}
	var what string
	switch e.Kind {
	case Rule:
		what = "rule " + quote(e.Text, maxQuote)
		if e.Message != "" {
			what += ", message " + quote(e.Message, maxQuote)
		}
	default:
		what = "description " + quote(e.Text, maxQuote)
	}
	if e.Reading != "" {
		what += ": " + e.Reading
	}
	return diag.Printable(where + ": " + what)
}

// q quotes text for a comment, bounded.
func (wr *writer) q(s string) string { return quote(s, wr.opts.MaxQuote) }

func quote(s string, max int) string {
	return "\"" + strings.ReplaceAll(phrases.Quote(s, max), "\"", "'") + "\""
}

// plainPath is a path YAML reads back as written without quotes.
var plainPath = regexp.MustCompile(`^\.[A-Za-z0-9_.\-\[\]*]*$`)

// fieldKey writes a path as a mapping key.
func fieldKey(p decl.Path) string {
	s := p.String()
	if plainPath.MatchString(s) {
		return s
	}
	return decl.JSONString(s)
}

// valueText writes a value in its YAML form: the KEP values and the
// modifier as words, update lists and unions as flow values.
func valueText(ext, v string) string {
	if ext == decl.ExtUpdate || ext == decl.ExtUnions {
		return v
	}
	return plainOrQuoted(v)
}

// plainWord is a name YAML reads back as the same string: a DNS name or
// a word, which no YAML version takes for a number, a boolean or null.
var plainWord = regexp.MustCompile(`^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$|^[A-Z][A-Za-z]*$|^v[0-9]+((alpha|beta)[0-9]+)?$`)

func plainOrQuoted(s string) string {
	if plainWord.MatchString(s) {
		return s
	}
	return decl.JSONString(s)
}

// Sets gives the sure proposals of the results as the sets decl.ParseFile
// would read from Write's text, each field's Source naming the proposal
// (file name, line the proposal's number), so that a problem a
// compiler reports at a field can be traced back (Vet).
func Sets(name string, results []*Result) []decl.Set {
	var out []decl.Set
	for _, r := range results {
		for _, group := range byVersions(r) {
			s := decl.Set{CRD: r.CRD, Source: decl.Source{File: name}}
			if vs := group[0].Versions; strings.Join(vs, ",") != strings.Join(r.Served, ",") {
				for _, v := range vs {
					s.Versions = append(s.Versions, decl.Named{Name: v, Source: decl.Source{File: name}})
				}
			}
			for _, p := range group {
				if p.Doubt == "" {
					s.Fields = append(s.Fields, decl.Field{Path: p.Path, Values: p.Values, Source: decl.Source{File: name, Line: p.id}})
				}
			}
			if len(s.Fields) > 0 {
				out = append(out, s)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].CRD < out[j].CRD })
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
