package verifyrun

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/inputs"
	"github.com/mut2cel/mut2cel/frontend/builtin"
	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify/declread"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// Job is one CRD to verify: its declarations and the CRD under test.
type Job struct {
	Declared batch.InputCRD
	Tested   map[string]interface{}
	// Builtin, when set, is the built-in kind Declared carries: its
	// policies are written, and its updates sent, for the kind itself.
	Builtin *builtin.Resource
	// warning, when set, says why the job may report disagreements that
	// are the run's flags', not the rules' (undeclaredVersions).
	warning *batch.Diagnostic
}

// Jobs reads the inputs at paths and pairs every CRD with declarations
// with the CRD under test. warnings count the documents of each input
// that are not CRDs (a note, not marked as a warning), and name
// declarations files' sets whose CRD is not in the inputs while others
// are; diags are the reasons the run cannot be done, among them inputs
// that hold no CRD at all, or no CRD with declarations.
func Jobs(paths []string, o Options) (jobs []Job, warnings, diags []batch.Diagnostic) {
	sets := o.Sets
	if sets == nil {
		sets, _ = batch.ReadDeclarations(nil)
	}
	if o.Translator == nil {
		o.Translator = translate.Translate
	}
	docs, diags := inputDocs(paths, o, sets)
	crds, census, more := batch.CRDs(docs)
	diags = append(diags, more...)
	warnings = append(warnings, census.Notes()...)
	against, more := againstCRDs(o.Against, o.Stdin)
	diags = append(diags, more...)
	for _, crd := range crds {
		sets.See(crd.Value)
		// A misspelt declaration is lost to the checker as to the
		// apiserver: refuse it before anything is checked without it.
		if err := translate.CheckSpelling(crd.Value); err != nil {
			diags = append(diags, crd.Diags(err)...)
			continue
		}
		job, ok, d := jobOf(crd, against, o)
		switch {
		case d != nil:
			diags = append(diags, *d)
		case ok:
			if len(o.Builtins) > 0 {
				if r, is := o.Builtins[crd.Name()]; is {
					job.Builtin = &r
				}
			}
			jobs = append(jobs, job)
			if job.warning != nil {
				warnings = append(warnings, *job.warning)
			}
		}
	}
	unused, more := sets.Unused()
	warnings, diags = append(warnings, unused...), append(diags, more...)
	if len(diags) == 0 {
		diags = census.NoCRD(paths)
	}
	if len(diags) == 0 && len(jobs) == 0 {
		// Nothing to check is not a check that passed.
		diags = []batch.Diagnostic{batch.NoDeclarations(paths, "--declarations", "--markers")}
	}
	return jobs, warnings, diags
}

// jobOf finds the declarations of one input CRD and the CRD they are
// checked against; false without declarations.
func jobOf(crd batch.InputCRD, against map[string]map[string]interface{}, o Options) (Job, bool, *batch.Diagnostic) {
	crd, rewritten, translated, d := declaredCRD(crd, against != nil, o)
	if d != nil {
		return Job{}, false, d
	}
	declaring := reference.DeclaringVersions(crd.Value)
	if len(declaring) == 0 {
		return Job{}, false, nil
	}
	tested := rewritten
	if tested == nil {
		tested = translated
	}
	job := Job{Declared: crd, Tested: tested}
	if tested == nil || against != nil {
		var d *batch.Diagnostic
		if job.Tested, d = testedCRD(crd, against, o); d != nil {
			return Job{}, false, d
		}
	}
	if against != nil {
		// A CRD under test made here, or the input itself, records the
		// declarations held against it.
		job.warning = undeclaredVersions(crd, declaring, job.Tested)
	}
	return job, true, nil
}

// declaredCRD returns the input CRD with every declaration the run
// gives it, as the reference reads them (declread): those kept in its
// annotation, and those of the run's files, markers and --all-versions.
// rewritten is the input when translate -w wrote it, checked as it is;
// translated the translation made here to read the declarations added,
// unless the rules under test are --against's (published).
func declaredCRD(crd batch.InputCRD, published bool, o Options) (_ batch.InputCRD, rewritten, translated map[string]interface{}, _ *batch.Diagnostic) {
	if declread.Annotated(crd.Value) {
		// Declarations kept in the annotation. A file translate -w
		// wrote is checked as it is against them; one never translated,
		// through its translation.
		declared, err := declread.CRD(crd.Value, nil, false)
		if err != nil {
			return crd, nil, nil, at(crd, err.Error())
		}
		if declread.Rewritten(crd.Value) {
			rewritten = crd.Value
		}
		crd.Value = declared
	}
	added := o.Translate.AllServedVersions || len(o.Translate.Declarations) > 0
	switch {
	case added && published:
		// The published rules are checked, not a translation: a
		// declaration no rule can express is still a declaration.
		declared, err := declread.CRD(crd.Value, o.Translate.Declarations, o.Translate.AllServedVersions)
		if err != nil {
			return crd, nil, nil, at(crd, err.Error())
		}
		crd.Value = declared
	case added:
		var d *batch.Diagnostic
		if crd.Value, translated, d = declaredByTranslation(crd, o); d != nil {
			return crd, nil, nil, d
		}
	}
	return crd, rewritten, translated, nil
}

// undeclaredVersions warns where a CRD under test that translate wrote
// records declarations (mut2cel.io/declarations) for versions the declared
// CRD, declaring only those of declaring, has none for: its rules there
// deny what the declared CRD allows, most often because it was translated
// with --all-versions and this run is not. Nil otherwise.
func undeclaredVersions(crd batch.InputCRD, declaring []string, tested map[string]interface{}) *batch.Diagnostic {
	if !declread.Annotated(tested) {
		return nil
	}
	recorded, err := declread.CRD(tested, nil, false)
	if err != nil {
		return nil
	}
	declared := map[string]bool{}
	for _, v := range declaring {
		declared[v] = true
	}
	var missing []string
	for _, v := range reference.DeclaringVersions(recorded) {
		if !declared[v] {
			missing = append(missing, v)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	versions := "version " + missing[0]
	if len(missing) > 1 {
		versions = "versions " + strings.Join(missing, ", ")
	}
	d := at(crd, "the CRD under test records declarations for "+versions+", which these declarations leave undeclared, "+
		"so its rules there will disagree with them; if it was translated with --all-versions, verify with --all-versions too")
	d.Severity = diag.Warning
	return d
}

// againstCRDs reads --against and indexes its CRDs by name; nil without it.
func againstCRDs(path string, stdin io.Reader) (map[string]map[string]interface{}, []batch.Diagnostic) {
	if path == "" {
		return nil, nil
	}
	inputs, diags := batch.Collect([]string{path}, stdin)
	crds, _, more := batch.CRDs(inputs)
	diags = append(diags, more...)
	byName := map[string]map[string]interface{}{}
	for _, crd := range crds {
		if _, dup := byName[crd.Name()]; dup {
			diags = append(diags, *at(crd, fmt.Sprintf("a second CRD named %q: --against must hold one CRD per name", crd.Name())))
		}
		byName[crd.Name()] = crd.Value
	}
	return byName, diags
}

// testedCRD is the CRD under test of crd: its namesake in --against, or
// its translation.
func testedCRD(crd batch.InputCRD, against map[string]map[string]interface{}, o Options) (map[string]interface{}, *batch.Diagnostic) {
	if against != nil {
		if tested, ok := against[crd.Name()]; ok {
			return tested, nil
		}
		return nil, at(crd, fmt.Sprintf("no CRD named %q in %s", crd.Name(), o.Against))
	}
	res, err := o.Translator(crd.Value, o.Translate)
	var terr *translate.Error
	switch {
	case errors.As(err, &terr):
		return nil, untranslatable(crd, terr)
	case err != nil:
		return nil, at(crd, err.Error())
	}
	return res.Translated, nil
}

// declaredByTranslation returns the CRD with the declarations that
// --all-versions copies, and those of --declarations files, written into
// the versions they apply to, so that the reference checker holds every
// version to them. The translation made on the way is returned as well,
// so that it is not made again to be tested.
//
// The declared CRD is read from the translation, whose schemas carry the
// bounds translate added (the checker must see the objects the CRD under
// test admits), by verify's own reader: it reads the declarations files
// and spreads over the served versions again by itself, so that a
// declaration the translation lost is still held against its rules.
func declaredByTranslation(crd batch.InputCRD, o Options) (declared, translated map[string]interface{}, _ *batch.Diagnostic) {
	res, err := o.Translator(crd.Value, o.Translate)
	if err == nil {
		if declared, err = declread.CRD(res.Translated, o.Translate.Declarations, o.Translate.AllServedVersions); err == nil {
			return declared, res.Translated, nil
		}
	}
	return nil, nil, untranslatable(crd, err)
}

// untranslatable says that crd cannot be verified, and why: the problems
// of its translation, at most batch.MaxPerFile of them as every command
// shows a file's problems, and how many more there are.
func untranslatable(crd batch.InputCRD, err error) *batch.Diagnostic {
	detail := err.Error()
	var terr *translate.Error
	if errors.As(err, &terr) {
		problems := batch.WithFlagHints(terr.Problems)
		detail = diag.List(problems).Error()
		if len(problems) > batch.MaxPerFile {
			shown := make([]string, batch.MaxPerFile)
			for i, p := range problems[:batch.MaxPerFile] {
				shown[i] = p.String()
			}
			detail = fmt.Sprintf("%d problems:\n  %s\n  too many problems: %d more not shown",
				len(problems), strings.Join(shown, "\n  "), len(problems)-batch.MaxPerFile)
		}
	}
	return at(crd, "cannot be translated, so there is nothing to verify: "+detail)
}

// at is a diagnostic at crd's document.
func at(crd batch.InputCRD, detail string) *batch.Diagnostic {
	d := crd.At
	d.Detail = detail
	return &d
}

// inputDocs reads the inputs at paths, standard input when there are none
// and no built-in kind either, and adds the documents that carry the
// built-in kinds of o to the compiler (inputs.Vehicles), which renames
// the declaration sets of sets that name them.
func inputDocs(paths []string, o Options, sets *batch.DeclarationSets) ([]batch.Input, []batch.Diagnostic) {
	var docs []batch.Input
	var diags []batch.Diagnostic
	if len(paths) > 0 || len(o.Builtins) == 0 {
		docs, diags = batch.Collect(paths, o.Stdin)
	}
	vehicles, more := inputs.Vehicles(o.Builtins, sets)
	return append(docs, vehicles...), append(diags, more...)
}
