package cluster

import (
	"errors"
	"io"
	"strconv"
	"sync"

	"github.com/mut2cel/mut2cel/internal/limits"
)

// budget is what is left of the bytes and values a Reader may read, all
// its responses together (internal/limits). A response is counted as it
// arrives, so that one larger than what is left stops one buffer past it,
// however large it is, and never ends in memory whole.
type budget struct {
	mu            sync.Mutex
	bytes, values int
	responses     int // responses read whole so far
}

func newBudget() *budget {
	return &budget{bytes: limits.InputBytes, values: limits.Values}
}

// read reads a response body within the budget; a limit passed is a
// *limitError.
func (b *budget) read(body io.Reader) ([]byte, error) {
	b.mu.Lock()
	before := b.responses
	b.mu.Unlock()
	data, err := io.ReadAll(&counted{b: b, r: body})
	var limit *limitError
	if errors.As(err, &limit) {
		limit.before = before
		return nil, limit
	}
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	values := limits.EstimateValues(data)
	if values > b.values {
		b.values = 0
		return nil, &limitError{what: "holds more than " + thousands(limits.Values) + " values (mapping keys and values, list items)", before: before}
	}
	b.values -= values
	b.responses++
	return data, nil
}

// take takes n bytes from the budget, and reports whether there were.
func (b *budget) take(n int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > b.bytes {
		b.bytes = 0
		return false
	}
	b.bytes -= n
	return true
}

// counted is a body whose bytes are taken from the budget as they are read.
type counted struct {
	b *budget
	r io.Reader
}

func (c *counted) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 && !c.b.take(n) {
		return 0, &limitError{what: "is larger than " + strconv.Itoa(limits.InputBytes>>20) + " MiB"}
	}
	return n, err
}

// limitError is a response that passes a limit of what a Reader reads.
type limitError struct {
	what   string
	before int // responses read before it
}

func (e *limitError) Error() string {
	subject := "the response "
	if e.before > 0 {
		subject = "with the " + strconv.Itoa(e.before) + " read before it, the response "
	}
	return subject + e.what + ", the most mut2cel reads in one run (docs/limits.md)"
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
