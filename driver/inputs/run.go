package inputs

import (
	"io"

	"github.com/mut2cel/mut2cel/driver/batch"
)

// Run is what every command's run starts from, the same for each: the
// paths of its inputs, its standard input, what the shared flags loaded
// (Load) and the problems found there, its translator, and where it says
// what it has to say. Each driver's Options embed it.
type Run struct {
	Paths  []string
	Stdin  io.Reader
	Inputs *Inputs
	// Problems are those found reading the inputs' declarations, which
	// the run reports with its own.
	Problems []batch.Diagnostic
	// Translator translates one document: DefaultTranslator, or a
	// stand-in in tests. The policy driver compiles with its own.
	Translator Translator
	Reporter   batch.Reporter
}
