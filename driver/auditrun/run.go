package auditrun

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/inferrun"
	"github.com/mut2cel/mut2cel/driver/verifyrun"
	"github.com/mut2cel/mut2cel/translate"
)

// DefaultPairs is the verifier's updates per served version: enough, on
// the corpus, to find every bypass docs/audit.md found by hand, and few
// enough to audit the whole corpus in well under a minute on two cores.
const DefaultPairs = 500

// Options are a run of audit.
type Options struct {
	Source inferrun.Source
	// Translate are the options of the translations that vet the
	// proposals and say what mut2cel would add: its target above all.
	Translate translate.Options
	// Translator is translate.Translate, or a stand-in; nil is the first.
	Translator inferrun.Translator
	// Pairs and Seed are the verifier's (zero Pairs: DefaultPairs).
	Pairs int
	Seed  int64
	// Jobs is how many CRDs are audited at once; the report does not
	// depend on it. Zero: one.
	Jobs int
	// JSON writes the report as JSON, else as text through Text.
	JSON bool
	Text func(io.Writer) io.Writer
	// Progress, when set, is told as each CRD is done.
	Progress func(done, total int)
	Reporter batch.Reporter
}

// Run reads the CRDs of the source, audits each, and reports: a finding
// when some documented guarantee is not enforced or has holes.
func Run(ctx context.Context, o Options) batch.Outcome {
	if o.Pairs <= 0 {
		o.Pairs = DefaultPairs
	}
	crds, problems := inferrun.Read(ctx, o.Source, o.Reporter)
	if len(problems) > 0 {
		return batch.Failed(problems)
	}
	// The verifier's garbage, and its heap, kept as verify keeps them.
	defer verifyrun.BoundHeap()()
	report := &Report{Pairs: o.Pairs, Seed: o.Seed, CRDs: len(crds), Findings: []Finding{}, Bounds: []CRDBounds{}, Notes: []Note{}}
	for _, a := range auditAll(crds, o) {
		problems = append(problems, a.problems...)
		report.Findings = append(report.Findings, a.findings...)
		report.Notes = append(report.Notes, a.notes...)
		if a.bounds != nil {
			report.Bounds = append(report.Bounds, *a.bounds)
		}
		if a.documenting {
			report.Documenting++
		}
	}
	if len(problems) > 0 {
		return batch.Failed(problems)
	}
	sortFindings(report.Findings)
	report.count()
	return render(report, o)
}

// auditAll audits the CRDs, o.Jobs at once, and returns their audits in
// the order of crds.
func auditAll(crds []batch.InputCRD, o Options) []audited {
	out := make([]audited, len(crds))
	next := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	done := 0
	for range max(o.Jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = auditCRD(crds[i], o)
				mu.Lock()
				done++
				if o.Progress != nil {
					o.Progress(done, len(crds))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range crds {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// render writes the report and its summary line.
func render(r *Report, o Options) batch.Outcome {
	var b bytes.Buffer
	if o.JSON {
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false) // rules are full of && and <
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return batch.Outcome{Exit: batch.ExitError, Summary: "mut2cel audit: " + err.Error()}
		}
	} else {
		w := io.Writer(&b)
		if o.Text != nil {
			w = o.Text(&b)
		}
		WriteText(w, r)
	}
	out := batch.Outcome{Stdout: b.Bytes(), Summary: "mut2cel audit: " + Summary(r)}
	if r.Failed() {
		out.Exit = batch.ExitFinding
	}
	return out
}

// Summary counts the findings in one line.
func Summary(r *Report) string {
	checked := r.Counts[NotEnforced] + r.Counts[Holes] + r.Counts[Untested] + r.Counts[Enforced]
	s := fmt.Sprintf("%s read; %s documented by %s: %d not enforced, %d with holes, %d enforced",
		batch.Counted(r.CRDs, "CRD"), batch.Counted(checked, "guarantee"), batch.Counted(r.Documenting, "CRD"),
		r.Counts[NotEnforced], r.Counts[Holes], r.Counts[Enforced])
	if n := r.Counts[Untested]; n > 0 {
		s += fmt.Sprintf(", %d untested", n)
	}
	if n := r.Counts[Unsure]; n > 0 {
		s += fmt.Sprintf("; %s not sure, not checked", batch.Counted(n, "proposal"))
	}
	return s
}
