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

// DefaultTranslator is the translator of a run that is given none: mut2cel's.
var DefaultTranslator Translator = translate.Translate
