package batch

import (
	"fmt"
	"io"
	"strconv"

	"github.com/mut2cel/mut2cel/internal/limits"
)

// budget is what is left of the bytes and values one run may read
// (internal/limits). Inputs are read against it one after the other, so
// that a run stops at the input that passes a limit, before reading more
// or parsing any: a stream that never ends, as /dev/zero on standard
// input, or a file dense with values would otherwise exhaust memory.
type budget struct {
	bytes, values int
	read          int  // inputs read so far
	spent         bool // a limit was passed: read nothing more
}

func newBudget() *budget {
	return &budget{bytes: limits.InputBytes, values: limits.Values}
}

// readAll reads r, the input named name, at most one byte past what is
// left: enough to know that the input is too large. A limit passed is a
// *limitError.
func (b *budget) readAll(name string, r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, int64(b.bytes)+1))
	if err != nil {
		return nil, err
	}
	b.read++
	if len(data) > b.bytes {
		return nil, b.tooLarge(name, fmt.Sprintf("is larger than %d MiB", limits.InputBytes>>20))
	}
	values := limits.EstimateValues(data)
	if values > b.values {
		return nil, b.tooLarge(name, "holds more than "+thousands(limits.Values)+" values (mapping keys and values, list items)")
	}
	b.bytes -= len(data)
	b.values -= values
	return data, nil
}

// tooLarge says which limit the input passes, alone or with the inputs
// read before it.
func (b *budget) tooLarge(name, what string) error {
	b.spent = true
	subject := "it "
	if b.read > 1 {
		subject = "with the inputs before it, it "
	}
	return &limitError{path: name, detail: subject + what + ", the most mut2cel reads in one run (docs/limits.md)"}
}

// limitError is an input that passes a limit of the run: "crd.yaml: it
// is larger than 64 MiB, ...".
type limitError struct{ path, detail string }

func (e *limitError) Error() string { return e.path + ": " + e.detail }

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
