package inputs

import (
	"github.com/mut2cel/mut2cel/plan"
	"github.com/mut2cel/mut2cel/translate"
)

// The targets a run may be given (--kube-version), as the commands name
// them in flags, help and completion.
type KubeVersion = plan.KubeVersion

var (
	MinKubeVersion     = plan.MinKubeVersion
	MaxKubeVersion     = plan.MaxKubeVersion
	DefaultKubeVersion = plan.DefaultKubeVersion
	ParseKubeVersion   = plan.ParseKubeVersion
)

// TranslateOptions are the options of one translation.
type TranslateOptions = translate.Options

// Target is the translation options of a command whose only translate
// flag is --kube-version: given, v wins over what a CRD records; else it
// stands where the CRD says nothing.
func Target(v KubeVersion, given bool) TranslateOptions {
	opts := TranslateOptions{FallbackKubeVersion: v}
	if given {
		opts.KubeVersion = v
	}
	return opts
}

// DefaultTranslator is the translator of a run that is given none: mut2cel's.
var DefaultTranslator Translator = translate.Translate
