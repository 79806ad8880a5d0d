package inputs

import (
	"errors"
	"fmt"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/frontend/markers"
	"github.com/mut2cel/mut2cel/translate"
)

// Options are the values of the flags that say what a run compiles.
type Options struct {
	// KubeVersion is the target; Given says it was given on the command
	// line, where it wins over what declarations files and CRDs say.
	KubeVersion      translate.KubeVersion
	KubeVersionGiven bool
	MaxLength        int64
	MaxItems         int64
	MaxProperties    int64
	BoundFloors      []string // KEYWORD=N or PATH:KEYWORD=N
	NoBounds         bool
	AllVersions      bool
	Formats          bool
	Declarations     []string // declarations files
	Markers          []string // go list patterns
	// Declaring are the flags the command offers to declare with
	// (--declarations, --markers), which a run that declares nothing
	// names.
	Declaring []string
}

// Inputs are the Options read: the options of every translation of the
// run, and what the run must report about them at its end.
type Inputs struct {
	Options translate.Options
	// Sets are the declarations of the files and of the markers, also
	// in Options.Declarations; they record the CRDs seen, to report the
	// sets that name none.
	Sets      *batch.DeclarationSets
	marked    *markers.Result // nil without --markers
	floors    *floorPaths
	values    []string // --bound-floor as given
	declaring []string
}

// Load reads the files and packages o names. usage, when set, is a bad
// invocation, and nothing is read; diags are the problems of the files
// and packages, each where it is.
func Load(o Options) (in *Inputs, usage string, diags []batch.Diagnostic) {
	floors, nodeFloors, err := parseFloors(o.BoundFloors)
	if err != nil {
		return nil, fmt.Sprintf("--bound-floor: %v", err), nil
	}
	sets, diags := batch.ReadDeclarations(o.Declarations)
	marked, more := markerSets(o.Markers)
	diags = append(diags, more...)
	if marked != nil {
		sets.Sets = append(sets.Sets, marked.Sets...)
	}
	opts := translate.Options{FallbackKubeVersion: o.KubeVersion,
		MaxLength: o.MaxLength, MaxItems: o.MaxItems, MaxProperties: o.MaxProperties, NoBounds: o.NoBounds,
		BoundFloors: floors, NodeFloors: nodeFloors, AllServedVersions: o.AllVersions, Declarations: sets.Sets,
		CompareFormatsAsValues: o.Formats}
	if o.KubeVersionGiven {
		// Given, it wins over the version a declarations file or a
		// CRD's record says (translate.Target); else the fallback stands
		// only where those say nothing.
		opts.KubeVersion = opts.FallbackKubeVersion
	}
	return &Inputs{Options: opts, Sets: sets, marked: marked, floors: newFloorPaths(nodeFloors), values: o.BoundFloors, declaring: o.Declaring}, "", diags
}

// Translator translates one CRD document with the given options, as
// translate.Translate does; tests of a command's plumbing give stand-ins.
type Translator func(doc map[string]interface{}, opts translate.Options) (*translate.Result, error)

// Translator is tr with the run's inputs: each CRD it sees is recorded,
// for the sets and floors that name none, and the rules controller-gen
// wrote for the markers read give way to mut2cel's.
func (in *Inputs) Translator(tr Translator) Translator {
	return func(doc map[string]interface{}, opts translate.Options) (*translate.Result, error) {
		in.see(doc)
		return translateMarked(tr, doc, opts, in.marked)
	}
}

// Translate translates one document with the run's options.
func (in *Inputs) Translate(tr Translator) batch.Translator {
	withInputs := in.Translator(tr)
	return func(doc map[string]interface{}) (*translate.Result, error) { return withInputs(doc, in.Options) }
}

// see records a CRD of the inputs.
func (in *Inputs) see(doc map[string]interface{}) {
	in.Sets.See(doc)
	in.floors.see(doc)
}

// Unused reports, once every input is read, the declaration sets and the
// --bound-floor paths that name nothing in the inputs: warnings when
// others do, errors when nothing declared was found
// (batch.DeclarationSets.Unused).
func (in *Inputs) Unused() (warnings, errs []batch.Diagnostic) {
	warnings, errs = in.Sets.Unused()
	return warnings, append(errs, in.floors.unknown(in.values)...)
}

// NoDeclarations is the error of a run whose inputs, the paths, declare
// nothing, naming the flags the command offers to declare with.
func (in *Inputs) NoDeclarations(paths []string) batch.Diagnostic {
	return batch.NoDeclarations(paths, in.declaring...)
}

// UnknownFloors reports the --bound-floor paths that none of docs has: for
// a run that finds its CRDs without translating each (verify), where
// Unused would miss the ones it did not translate.
func (in *Inputs) UnknownFloors(docs []map[string]interface{}) []batch.Diagnostic {
	for _, doc := range docs {
		in.floors.see(doc)
	}
	return in.floors.unknown(in.values)
}

// markerSets reads the markers of the packages; each problem is a
// diagnostic at its Go file and line. No patterns give a nil result.
func markerSets(patterns []string) (*markers.Result, []batch.Diagnostic) {
	if len(patterns) == 0 {
		return nil, nil
	}
	r, err := markers.Load("", patterns...)
	if err != nil {
		var errs decl.Errors
		if !errors.As(err, &errs) {
			err = fmt.Errorf("--markers: %v", err)
		}
		// r, when not nil, holds the marks read well: translating with
		// them reports their problems in this run too.
		return r, batch.DeclErrorDiagnostics(err, batch.Diagnostic{})
	}
	return r, nil
}

// translateMarked translates doc with tr, the rules controller-gen wrote
// for the +k8s:immutable fields and the ExactlyOneOf and AtMostOneOf
// markers of marked replaced: they are taken out before translation, so
// that mut2cel's rules replace them, and the result removes them from
// doc and warns of each. opts holds marked.Sets among its Declarations.
func translateMarked(tr Translator, doc map[string]interface{}, opts translate.Options, marked *markers.Result) (*translate.Result, error) {
	if marked == nil {
		return tr(doc, opts)
	}
	without, edits, warnings, err := marked.ControllerGenRules(doc)
	if err != nil {
		return nil, err
	}
	res, err := tr(without, opts)
	if err != nil {
		return nil, err
	}
	res.Edits = append(edits, res.Edits...)
	res.Warnings = append(warnings, res.Warnings...)
	return res, nil
}
