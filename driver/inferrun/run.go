package inferrun

import (
	"bytes"
	"context"
	"fmt"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/frontend/infer"
	"github.com/mut2cel/mut2cel/translate"
)

// Options are a run of infer.
type Options struct {
	Source Source
	// Translate are the options translate vets the proposals with: the
	// target Kubernetes version above all.
	Translate translate.Options
	// Translator is translate.Translate, or the command's stand-in in
	// tests; nil is translate.Translate.
	Translator Translator
	// Out, when set, is the file to write; else the declarations go to
	// standard output.
	Out string
	// Progress, when set, is told as each CRD is proposed for.
	Progress func(done, total int)
	Reporter batch.Reporter
}

// Header opens every file infer writes: --out replaces only a file that
// starts with it, so that declarations edited by hand are not lost.
const Header = headerLine + "# Review them before use. mut2cel infer --out replaces this file while its first line is there.\n"

const headerLine = "# Declarations proposed by mut2cel infer from what the CRDs say (docs/infer.md).\n"

// Run reads the CRDs of the source, proposes declarations for each and
// writes them.
func Run(ctx context.Context, o Options) batch.Outcome {
	crds, problems := Read(ctx, o.Source, o.Reporter)
	if len(problems) > 0 {
		return batch.Failed(problems)
	}
	var results []*infer.Result
	for i, c := range crds {
		p, diags := Propose(c, o.Translate, o.Translator)
		problems = append(problems, diags...)
		if p != nil {
			results = append(results, p.Result)
			o.Reporter.Say(p.Unplaced)
		}
		if o.Progress != nil {
			o.Progress(i+1, len(crds))
		}
	}
	if len(problems) > 0 {
		return batch.Failed(problems)
	}
	var b bytes.Buffer
	b.WriteString(Header)
	if err := infer.Write(&b, results, infer.WriteOptions{}); err != nil {
		return batch.Failed([]batch.Diagnostic{{Detail: err.Error()}})
	}
	summary := "mut2cel infer: " + Summary(results)
	if o.Out == "" {
		return batch.Outcome{Stdout: b.Bytes(), Summary: summary}
	}
	if err := writeOut(o.Out, b.Bytes()); err != nil {
		return batch.Outcome{Exit: batch.ExitError, Summary: "mut2cel infer: " + err.Error()}
	}
	return batch.Outcome{Summary: summary + "; wrote " + o.Out}
}

// writeOut writes the declarations to path, atomically, unless a file
// there was not written by infer.
func writeOut(path string, data []byte) error {
	return batch.WriteFileChecked(path, data, 0o644, func(old []byte) error {
		if !bytes.HasPrefix(old, []byte(headerLine)) {
			return fmt.Errorf("%s exists and was not written by mut2cel infer (or its first line was removed to keep it); remove it or choose another file", path)
		}
		return nil
	})
}

// Summary counts what the results propose: "156 proposals for 52 of 145
// CRDs, 30 of them not sure (written commented out)".
func Summary(results []*infer.Result) string {
	proposals, doubtful, proposing := 0, 0, 0
	for _, r := range results {
		if len(r.Proposals) > 0 {
			proposing++
		}
		for _, p := range r.Proposals {
			proposals++
			if p.Doubt != "" {
				doubtful++
			}
		}
	}
	s := fmt.Sprintf("%s for %d of %s", batch.Counted(proposals, "proposal"), proposing, batch.Counted(len(results), "CRD"))
	if doubtful > 0 {
		s += fmt.Sprintf(", %d of them not sure (written commented out)", doubtful)
	}
	return s
}
