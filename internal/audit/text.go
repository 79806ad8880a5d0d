package audit

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/mut2cel/mut2cel/costest"
)

// WriteText prints the report for people: per CRD version, the rules by
// cost with their share of the per-expression limit, the total, and what to
// do about every limit crossed.
func WriteText(w io.Writer, r *Report) error {
	var b strings.Builder
	for i, crd := range r.CRDs {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s (%s, document %d), Kubernetes %s\n", crd.Name, crd.File, crd.Document, r.KubeVersion)
		if crd.TranslateError != "" {
			fmt.Fprintf(&b, "  the declarations were not translated, the CRD's own rules are over the limits: %s\n", oneLine(crd.TranslateError))
		}
		for _, v := range crd.Versions {
			writeVersion(&b, v)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeVersion(b *strings.Builder, v Version) {
	fmt.Fprintf(b, "  version %s: total %d (%s of the per-version limit %d)\n",
		v.Name, v.TotalCost, share(v.TotalCost, costest.PerVersionLimit.Value), costest.PerVersionLimit.Value)
	if len(v.Rules) > 0 {
		tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "    COST\tSHARE\tPER CALL\tCARDINALITY\tPATH\tRULE\n")
		for _, r := range v.Rules {
			text := r.Rule
			if r.Generated {
				text = "(generated) " + text
			}
			if r.Error != "" {
				text += " [does not compile: " + r.Error + "]"
			}
			fmt.Fprintf(tw, "    %d\t%s\t%d\t%d\t%s\t%s\n", r.Cost, share(r.Cost, costest.PerExpressionLimit.Value), r.PerCall, r.Cardinality, r.Path, shorten(oneLine(text)))
		}
		tw.Flush()
	}
	for _, bd := range v.BoundsAdded {
		fmt.Fprintf(b, "    bound added: %s: %s: %d (objects above it are now rejected)\n", bd.Path, bd.Keyword, bd.Value)
	}
	for _, x := range v.Exceeds {
		if x.Static {
			fmt.Fprintf(b, "    REJECTED: %s: estimated cost %d is %s the %s limit %d; the apiserver rejects the CRD\n",
				x.Path, x.Cost, factor(x.Cost, x.LimitValue), x.Limit, x.LimitValue)
			continue
		}
		fmt.Fprintf(b, "    WARNING: %s: worst-case cost %d is %s the runtime %s limit %d; the apiserver can cancel the evaluation and reject the update\n",
			x.Path, x.Cost, factor(x.Cost, x.LimitValue), x.Limit, x.LimitValue)
	}
	for _, s := range v.Suggestions {
		if len(s.Bounds) == 0 {
			fmt.Fprintf(b, "    suggestion for %s: %s\n", s.Path, s.Detail)
			continue
		}
		parts := make([]string, len(s.Bounds))
		for i, bd := range s.Bounds {
			parts[i] = fmt.Sprintf("%s: %d at %s", bd.Keyword, bd.Value, bd.Path)
		}
		fmt.Fprintf(b, "    suggestion: add %s to bring %s under every limit\n", strings.Join(parts, ", "), s.Path)
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

// maxRuleText is how much of a rule the text table shows; the JSON report
// has it all.
const maxRuleText = 100

func shorten(s string) string {
	if r := []rune(s); len(r) > maxRuleText {
		return string(r[:maxRuleText-3]) + "..."
	}
	return s
}
