package apiserver

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
)

// tailSize is how much of the latest log output a logTail keeps.
const tailSize = 4096

// logTail keeps the end of the log output, so that a server that fails to
// start can say what it logged last without printing everything it logs
// when it works.
type logTail struct {
	mu  sync.Mutex
	buf []byte
}

func (l *logTail) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	if len(l.buf) > 2*tailSize {
		l.buf = append([]byte(nil), l.buf[len(l.buf)-tailSize:]...)
	}
	return len(p), nil
}

// annotate adds the last log lines to err.
func (l *logTail) annotate(err error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.buf
	if len(out) > tailSize {
		out = out[len(out)-tailSize:]
		if i := bytes.IndexByte(out, '\n'); i >= 0 {
			out = out[i+1:]
		}
	}
	if len(out) == 0 {
		return err
	}
	return fmt.Errorf("%w\nlast log lines of the server:\n%s", err, strings.TrimRight(string(out), "\n"))
}
