package main

// The flags that several commands share, each added by one function so
// that it is spelled, described and completed alike everywhere.

import (
	"fmt"
	"os"
	"strings"

	"github.com/mut2cel/mut2cel/driver/inputs"
	"github.com/spf13/pflag"
)

// declarationsFlag adds --declarations, the declarations files for CRDs
// the user does not own, to a command that reads CRDs.
func declarationsFlag(fs *pflag.FlagSet, p *[]string) {
	fs.StringArrayVar(p, "declarations", nil, "declarations file (kind Declarations) whose declarations are added to the CRDs it names, for CRDs you do not own; repeatable")
	fs.SetAnnotation("declarations", completeAnnotation, []string{completeFiles})
}

// verboseFlag adds -v, which lists every bound added where the warnings
// summarize them per version, to a command that translates.
func verboseFlag(fs *pflag.FlagSet, p *bool) {
	fs.BoolVarP(p, "verbose", "v", false, "list every bound added and every reason a declaration is refused, not only a summary per version and the first reasons")
}

// allVersionsFlag adds --all-versions, translate.Options.AllServedVersions,
// to the flags of a command that translates.
func allVersionsFlag(fs *pflag.FlagSet, p *bool) {
	fs.BoolVar(p, "all-versions", false, "apply the declarations of each served version to every other served version where the path exists")
}

// formatsFlagName is the run-wide form of the modifier x-mut2cel-formats:
// CompareAsValues, translate.Options.CompareFormatsAsValues.
const formatsFlagName = "compare-formats-as-values"

// formatsFlag adds --compare-formats-as-values to the flags of a command
// that translates.
func formatsFlag(fs *pflag.FlagSet, p *bool) {
	fs.BoolVar(p, formatsFlagName, false, "compare strings of format date-time, duration and byte as the apiserver's CEL reads them, in every declaration, as x-mut2cel-formats: CompareAsValues does beside one (respellings of a value are no change; a value CEL cannot read fails the rules)")
}

// outputFlag adds -o/--output, the format of the command's report on
// standard output; formats[0] is the default. Its words are not files, so
// completion offers none.
func outputFlag(fs *pflag.FlagSet, p *string, help string, formats ...string) {
	fs.StringVarP(p, "output", "o", formats[0], help)
	fs.SetAnnotation("output", completeAnnotation, []string{completeFree})
}

// badOutput returns the usage error of an -o value that is none of
// formats, "" for a good one.
func badOutput(value string, formats ...string) string {
	for _, f := range formats {
		if value == f {
			return ""
		}
	}
	last := len(formats) - 1
	return fmt.Sprintf("-o must be %s or %s, not %q", strings.Join(formats[:last], ", "), formats[last], value)
}

// kubeVersionEnv names the environment variable that sets the default of
// --kube-version, so that a project targeting one Kubernetes version says
// it once (in CI, in a Makefile, in the shell).
const kubeVersionEnv = "MUT2CEL_KUBE_VERSION"

// kubeVersionVar adds --kube-version to the flags of a command, with
// $MUT2CEL_KUBE_VERSION, else inputs.DefaultKubeVersion, as its
// default. A bad variable is reported by checkKubeVersionEnv.
func kubeVersionVar(fs *pflag.FlagSet, p *kubeVersionFlag) {
	v, err := kubeVersionFromEnv()
	if err != nil || v.IsZero() {
		v = inputs.DefaultKubeVersion
	}
	*p = kubeVersionFlag(v)
	fs.Var(p, "kube-version", fmt.Sprintf("oldest Kubernetes version (%s to %s) the rules must work on: "+
		"they are generated for it and compiled in its CEL environment; given, it wins over the kubeVersion of a declarations file "+
		"and the version a translated CRD records; $%s sets the default where neither says one",
		inputs.MinKubeVersion, inputs.MaxKubeVersion, kubeVersionEnv))
}

// kubeVersionFromEnv reads $MUT2CEL_KUBE_VERSION; unset or empty gives
// the zero version.
func kubeVersionFromEnv() (inputs.KubeVersion, error) {
	s := os.Getenv(kubeVersionEnv)
	if s == "" {
		return inputs.KubeVersion{}, nil
	}
	v, err := inputs.ParseKubeVersion(s)
	if err != nil {
		return v, fmt.Errorf("$%s: %v", kubeVersionEnv, err)
	}
	return v, nil
}

// checkKubeVersionEnv reports a bad $MUT2CEL_KUBE_VERSION when fs has
// --kube-version and the command line does not set it: the flag wins.
func checkKubeVersionEnv(fs *pflag.FlagSet) error {
	if f := fs.Lookup("kube-version"); f == nil || f.Changed {
		return nil
	}
	_, err := kubeVersionFromEnv()
	return err
}

// kubeVersionFlag is a inputs.KubeVersion as a flag; a bad value is a
// usage error.
type kubeVersionFlag inputs.KubeVersion

func (f *kubeVersionFlag) String() string { return inputs.KubeVersion(*f).String() }
func (f *kubeVersionFlag) Type() string   { return "X.Y" }

func (f *kubeVersionFlag) Set(s string) error {
	v, err := inputs.ParseKubeVersion(s)
	if err != nil {
		return err
	}
	*f = kubeVersionFlag(v)
	return nil
}
