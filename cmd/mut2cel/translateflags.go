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
	"github.com/mut2cel/mut2cel/driver/inputs"
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

// load checks the shared flags of fs and reads the files and packages
// they name (inputs.Load). usage, when set, is a bad invocation, and
// nothing is read; diags are the problems of the files and packages,
// each where it is.
func (t *translateInputFlags) load(fs *pflag.FlagSet) (in *inputs.Inputs, usage string, diags []batch.Diagnostic) {
	if usage := t.check(fs); usage != "" {
		return nil, usage, nil
	}
	return inputs.Load(inputs.Options{KubeVersion: inputs.KubeVersion(t.kube), KubeVersionGiven: fs.Changed("kube-version"),
		MaxLength: t.maxLength, MaxItems: t.maxItems, MaxProperties: t.maxProperties, BoundFloors: t.floors, NoBounds: t.noBounds,
		AllVersions: t.allVersions, Formats: t.formats, Declarations: t.declarations, Markers: t.markers, Declaring: t.declaring()})
}

// run loads the shared flags of fs (load) and starts the run of the
// command on the inputs fs names; usage, when set, is a bad invocation.
func (t *translateInputFlags) run(e *env, fs *pflag.FlagSet) (run inputs.Run, usage string) {
	in, usage, diags := t.load(fs)
	return inputs.Run{Paths: fs.Args(), Stdin: e.stdin, Inputs: in, Problems: diags, Translator: e.translate,
		Reporter: newReporter(e, t.command)}, usage
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

// declaring names the flags the command offers to declare with.
func (t *translateInputFlags) declaring() []string {
	var flags []string
	for _, name := range []string{"declarations", "markers"} {
		if _, refused := t.refused[name]; !refused {
			flags = append(flags, "--"+name)
		}
	}
	return flags
}

// sentence joins names as "a, b and c".
func sentence(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
