package main

// The inputs of a translation, as every command that translates takes
// them: translate, patch, cost and verify register the same flags here and
// build their translate.Options with the same code, so that a flag one of
// them takes is taken, described, completed and checked alike by all.

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/frontend/markers"
	"github.com/mut2cel/mut2cel/translate"
)

// translateInputFlags are the flags that say what a command translates: the
// declarations added to the CRDs' own (--declarations, --markers,
// --all-versions), the target (--kube-version) and the bounds translate
// may add (--max-length, --max-items, --max-properties, --bound-floor,
// --no-bounds).
type translateInputFlags struct {
	kube                               kubeVersionFlag
	maxLength, maxItems, maxProperties int64
	floors                             []string
	noBounds                           bool
	allVersions                        bool
	formats                            bool
	declarations                       []string
	markers                            []string

	command string
	// refused are the flags the command registers only to refuse, each
	// with the reason, which its help gives too.
	refused map[string]string
}

// sharedTranslateFlags lists the flags translateInputFlags registers, in the
// order of the help, which sorts them anyway.
var sharedTranslateFlags = []string{"all-versions", "bound-floor", "compare-formats-as-values", "declarations", "kube-version", "markers", "max-items", "max-length", "max-properties", "no-bounds"}

// boundFlags are the flags that shape the bounds translate adds.
var boundFlags = []string{"max-length", "max-items", "max-properties", "bound-floor", "no-bounds"}

// register adds the shared flags to fs, the flag set of command. A flag
// in refused is still registered, so that giving it is refused with its
// reason rather than called unknown, and its help says why.
func (t *translateInputFlags) register(fs *pflag.FlagSet, command string, refused map[string]string) {
	t.command, t.refused = command, refused
	kubeVersionVar(fs, &t.kube)
	fs.Int64Var(&t.maxLength, "max-length", 0, "maxLength to add where generated rules need one (default: the largest round value that fits, never below the floor)")
	fs.Int64Var(&t.maxItems, "max-items", 0, "maxItems to add where generated rules need one (default: the largest round value that fits, never below the floor)")
	fs.Int64Var(&t.maxProperties, "max-properties", 0, "maxProperties to add where generated rules need one (default: the largest round value that fits, never below the floor)")
	fs.StringArrayVar(&t.floors, "bound-floor", nil, "smallest value of the bounds mut2cel adds: KEYWORD=N for every node (defaults maxLength=253, maxItems=64, maxProperties=64), or PATH:KEYWORD=N for one node, PATH as in the declarations annotation (.spec.ports[*].name); repeatable")
	fs.SetAnnotation("bound-floor", completeAnnotation, []string{completeFree})
	fs.BoolVar(&t.noBounds, "no-bounds", false, "fail, listing the bounds needed, instead of adding bounds")
	allVersionsFlag(fs, &t.allVersions)
	formatsFlag(fs, &t.formats)
	declarationsFlag(fs, &t.declarations)
	markersFlag(fs, &t.markers)
	for name, why := range refused {
		fs.Lookup(name).Usage = fmt.Sprintf("not taken by %s: %s", command, why)
		fs.SetAnnotation(name, refusedAnnotation, []string{why})
	}
}

// refusedAnnotation, a pflag annotation, marks a flag a command registers
// only to refuse it: completion does not offer it.
const refusedAnnotation = "mut2cel/refused"

// translateInputs are what the shared flags name, read: the options of
// every translation of the run, and what the run must report about them
// at its end.
type translateInputs struct {
	opts translate.Options
	// sets are the declarations of the files and of the markers, also in
	// opts.Declarations; they record the CRDs seen, to report the sets
	// that name none.
	sets   *batch.DeclarationSets
	marked *markers.Result // nil without --markers
	floors *floorPaths
	flags  *translateInputFlags
}

// load checks the shared flags of fs and reads the files and packages
// they name. usage, when set, is a bad invocation, and nothing is read;
// diags are the problems of the files and packages, each where it is.
func (t *translateInputFlags) load(fs *pflag.FlagSet) (in *translateInputs, usage string, diags []batch.Diagnostic) {
	if usage := t.check(fs); usage != "" {
		return nil, usage, nil
	}
	floors, nodeFloors, err := parseFloors(t.floors)
	if err != nil {
		return nil, fmt.Sprintf("--bound-floor: %v", err), nil
	}
	sets, diags := batch.ReadDeclarations(t.declarations)
	marked, more := markerSets(t.markers)
	diags = append(diags, more...)
	if marked != nil {
		sets.Sets = append(sets.Sets, marked.Sets...)
	}
	opts := translate.Options{FallbackKubeVersion: translate.KubeVersion(t.kube),
		MaxLength: t.maxLength, MaxItems: t.maxItems, MaxProperties: t.maxProperties, NoBounds: t.noBounds,
		BoundFloors: floors, NodeFloors: nodeFloors, AllServedVersions: t.allVersions, Declarations: sets.Sets,
		CompareFormatsAsValues: t.formats}
	if fs.Changed("kube-version") {
		// Given, it wins over the version a declarations file or a
		// CRD's record says (translate.Target); else $MUT2CEL_KUBE_VERSION
		// or the default stand only where those say nothing.
		opts.KubeVersion = opts.FallbackKubeVersion
	}
	return &translateInputs{opts: opts, sets: sets, marked: marked, floors: newFloorPaths(nodeFloors), flags: t}, "", diags
}

// check returns the usage error of the shared flags as given, "" when
// there is none.
func (t *translateInputFlags) check(fs *pflag.FlagSet) string {
	for _, name := range sharedTranslateFlags {
		if why, ok := t.refused[name]; ok && fs.Changed(name) {
			return fmt.Sprintf("--%s is not taken by %s: %s", name, t.command, why)
		}
	}
	if t.maxLength < 0 || t.maxItems < 0 || t.maxProperties < 0 {
		return fmt.Sprintf("--max-length, --max-items and --max-properties must not be negative (0, the default, lets translate choose), got %d, %d and %d",
			t.maxLength, t.maxItems, t.maxProperties)
	}
	return ""
}

// givenBounds names the bound flags given on the command line.
func givenBounds(fs *pflag.FlagSet) []string {
	var given []string
	for _, name := range boundFlags {
		if fs.Changed(name) {
			given = append(given, "--"+name)
		}
	}
	return given
}

// translator is tr with the run's inputs: each CRD it sees is recorded,
// for the sets and floors that name none, and the rules controller-gen
// wrote for +k8s:immutable give way to mut2cel's under --markers.
func (in *translateInputs) translator(tr translator) translator {
	return func(doc map[string]interface{}, opts translate.Options) (*translate.Result, error) {
		in.see(doc)
		return translateMarked(tr, doc, opts, in.marked)
	}
}

// translate translates one document with the run's options.
func (in *translateInputs) translate(tr translator) batch.Translator {
	withInputs := in.translator(tr)
	return func(doc map[string]interface{}) (*translate.Result, error) { return withInputs(doc, in.opts) }
}

// see records a CRD of the inputs.
func (in *translateInputs) see(doc map[string]interface{}) {
	in.sets.See(doc)
	in.floors.see(doc)
}

// unused reports, once every input is read, the declaration sets and the
// --bound-floor paths that name nothing in the inputs: warnings when
// others do, errors when nothing declared was found (batch.DeclarationSets.Unused).
func (in *translateInputs) unused() (warnings, errs []batch.Diagnostic) {
	warnings, errs = in.sets.Unused()
	return warnings, append(errs, in.floors.unknown(in.flags.floors)...)
}

// noDeclarations is the error of a run whose inputs declare nothing,
// naming the flags of the command that could have declared.
func (in *translateInputs) noDeclarations(paths []string) batch.Diagnostic {
	var flags []string
	for _, name := range []string{"declarations", "markers"} {
		if _, refused := in.flags.refused[name]; !refused {
			flags = append(flags, "--"+name)
		}
	}
	return batch.NoDeclarations(paths, flags...)
}

// sentence joins names as "a, b and c".
func sentence(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
