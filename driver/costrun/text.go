package costrun

import (
	"fmt"
	"io"
	"strings"

	"github.com/mut2cel/mut2cel/costest"
)

// WriteText prints the report for people, in lines of at most Width
// columns: per CRD version, the rules by cost with their share of the
// per-expression limit, the total, and what to do about every limit
// crossed. Nodes are named as in the declarations annotation
// (.spec.ports[*]); the JSON report has the full paths.
func WriteText(w io.Writer, r *Report) error {
	var b strings.Builder
	for i, crd := range r.CRDs {
		if i > 0 {
			b.WriteString("\n")
		}
		kube := r.KubeVersion
		if crd.KubeVersion != "" {
			kube = crd.KubeVersion
		}
		writeWrapped(&b, "", fmt.Sprintf("%s (%s, document %d), Kubernetes %s", crd.Name, crd.File, crd.Document, kube))
		if crd.TranslateError != "" {
			b.WriteString("  the declarations were not translated, the CRD's own rules are over the limits:\n")
			for _, line := range strings.Split(crd.TranslateError, "\n") {
				if line = strings.TrimSpace(line); line != "" && !strings.HasSuffix(line, "problems:") {
					writeWrapped(&b, "    ", line)
				}
			}
		}
		for _, v := range crd.Versions {
			writeVersion(&b, v)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Width is the widest line WriteText prints.
const Width = 120

func writeVersion(b *strings.Builder, v Version) {
	writeWrapped(b, "  ", fmt.Sprintf("version %s: total %d (%s of the per-version limit %d)",
		v.Name, v.TotalCost, share(v.TotalCost, costest.PerVersionLimit.Value), costest.PerVersionLimit.Value))
	writeRules(b, v.Rules)
	byPath := map[string]Rule{}
	for _, r := range v.Rules {
		byPath[r.Path] = r
	}
	for _, bd := range v.BoundsAdded {
		writeWrapped(b, "    ", fmt.Sprintf("bound added: %s: %s: %d (objects above it are now rejected)", bd.Node, bd.Keyword, bd.Value))
	}
	for _, x := range v.Exceeds {
		what := findingName(byPath, x.Path, x.Upstream)
		if x.Static {
			writeWrapped(b, "    ", fmt.Sprintf("REJECTED: %s: estimated cost %d is %s the %s limit %d; the apiserver rejects the CRD",
				what, x.Cost, factor(x.Cost, x.LimitValue), x.Limit, x.LimitValue))
			continue
		}
		writeWrapped(b, "    ", fmt.Sprintf("WARNING: %s: worst-case cost %d is %s the runtime %s limit %d; the apiserver can cancel the evaluation and reject the update",
			what, x.Cost, factor(x.Cost, x.LimitValue), x.Limit, x.LimitValue))
	}
	for _, s := range v.Suggestions {
		what := findingName(byPath, s.Path, s.Upstream)
		if len(s.Bounds) == 0 {
			writeWrapped(b, "    ", fmt.Sprintf("suggestion for %s: %s", what, s.Detail))
			continue
		}
		parts := make([]string, len(s.Bounds))
		for i, bd := range s.Bounds {
			parts[i] = fmt.Sprintf("%s: %d at %s", bd.Keyword, bd.Value, bd.Node)
		}
		writeWrapped(b, "    ", fmt.Sprintf("suggestion: add %s to bring %s under every limit", strings.Join(parts, ", "), what))
	}
}

// writeRules prints the table of rules, the rule text cut to what the
// width leaves.
func writeRules(b *strings.Builder, rules []Rule) {
	if len(rules) == 0 {
		return
	}
	rows := ruleRows(rules)
	widths := columnWidths(rows)
	used := 4 // indent
	for _, w := range widths[:len(widths)-1] {
		used += w + 2
	}
	room := max(Width-used, minRuleText)
	for _, row := range rows {
		var line strings.Builder
		line.WriteString("    ")
		for i, cell := range row[:len(row)-1] {
			fmt.Fprintf(&line, "%-*s  ", widths[i], cell)
		}
		line.WriteString(shorten(row[len(row)-1], room))
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}

// ruleRows are the table of rules, a header and a row each.
func ruleRows(rules []Rule) [][]string {
	rows := [][]string{{"COST", "SHARE", "PER CALL", "CARD", "NODE", "RULE"}}
	for _, r := range rules {
		text := r.Rule
		if r.Kind == costest.KindMessageExpression {
			text = "(message) " + text
		}
		if r.Generated {
			text = "(generated) " + text
		}
		if r.Error != "" {
			text += " [does not compile: " + r.Error + "]"
		}
		rows = append(rows, []string{fmt.Sprint(r.Cost), share(r.Cost, costest.PerExpressionLimit.Value),
			fmt.Sprint(r.PerCall), fmt.Sprint(r.Cardinality), r.Node, oneLine(text)})
	}
	return rows
}

// columnWidths are the widths of the columns of rows but the last. A
// node path too long for the line keeps its end, the part that tells
// nodes apart, so that the rule keeps minRuleText columns: rows are
// shortened there.
func columnWidths(rows [][]string) []int {
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, cell := range row[:len(row)-1] {
			widths[i] = max(widths[i], len([]rune(cell)))
		}
	}
	const node = 4
	nodeRoom := Width - 4 - minRuleText - 2
	for _, w := range widths[:node] {
		nodeRoom -= w + 2
	}
	if widths[node] > nodeRoom {
		for _, row := range rows[1:] {
			if r := []rune(row[node]); len(r) > nodeRoom {
				row[node] = "..." + string(r[len(r)-nodeRoom+3:])
			}
		}
		widths[node] = nodeRoom
	}
	return widths
}

// ruleName names the rule at a cost path, or the version when the path is
// the schema root's.
func ruleName(byPath map[string]Rule, path string) string {
	r, ok := byPath[path]
	switch {
	case !ok:
		return "the version"
	case r.Kind == costest.KindMessageExpression:
		return fmt.Sprintf("the messageExpression of rule %d on %s", r.Index+1, r.Node)
	}
	return fmt.Sprintf("rule %d on %s", r.Index+1, r.Node)
}

// findingName names what a finding is about, saying when it is upstream's
// (about rules that were in the input, not generated by mut2cel), so that
// it is not read as a finding about the declarations (docs/cost.md).
func findingName(byPath map[string]Rule, path string, upstream bool) string {
	name := ruleName(byPath, path)
	switch {
	case !upstream:
		return name
	case path == costest.VersionPath:
		return name + " (upstream's rules alone)"
	}
	return "upstream's " + name
}

// writeWrapped writes text after indent, broken at spaces into lines of
// at most Width columns, continued two columns further in.
func writeWrapped(b *strings.Builder, indent, text string) {
	prefix := indent
	for {
		room := Width - len(prefix)
		if len(text) <= room {
			b.WriteString(prefix + text + "\n")
			return
		}
		cut := strings.LastIndexByte(text[:room+1], ' ')
		if cut <= 0 {
			cut = strings.IndexByte(text, ' ')
			if cut < 0 {
				b.WriteString(prefix + text + "\n")
				return
			}
		}
		// The break takes every space around it: none ends a line.
		b.WriteString(prefix + strings.TrimRight(text[:cut], " ") + "\n")
		text, prefix = strings.TrimLeft(text[cut:], " "), indent+"  "
	}
}

// factor prints how many times the limit a cost is, the apiserver's way
// for large factors.
func factor(cost, limit uint64) string {
	f := float64(cost) / float64(limit)
	if f > 100 {
		return "more than 100x"
	}
	return fmt.Sprintf("%.2fx", f)
}

// share prints cost as a percentage of limit.
func share(cost, limit uint64) string {
	if float64(cost) > 100*float64(limit) {
		return ">10000%"
	}
	return fmt.Sprintf("%.2f%%", 100*float64(cost)/float64(limit))
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// minRuleText is the least of a rule the text table shows, however wide
// the other columns; the JSON report has it all.
const minRuleText = 30

func shorten(s string, room int) string {
	if r := []rune(s); len(r) > room {
		return string(r[:room-3]) + "..."
	}
	return s
}
