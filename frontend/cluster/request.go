package cluster

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// ErrUnreachable is wrapped by the error of a request the server did not
// answer: refused, unresolvable, no TLS handshake, or no answer in time.
var ErrUnreachable = errors.New("cannot reach the cluster")

// errorBodyLimit is the most of an error response read for its message.
const errorBodyLimit = 64 << 10

// get sends GET path?query (path relative to the server's URL, which may
// have a path of its own) and returns the body of a 200 response, read
// within the Reader's budget. This is the only place a request is made.
func (r *Reader) get(ctx context.Context, path string, query url.Values) ([]byte, error) {
	ctx, cancel := context.WithDeadline(ctx, r.deadline)
	defer cancel()
	if err := r.acquire(ctx); err != nil {
		return nil, r.requestError(path, err, time.Now())
	}
	defer r.release()
	ctx, cancelRequest := context.WithTimeout(ctx, r.timeout)
	defer cancelRequest()
	start := time.Now()
	u := *r.base
	u.Path = r.base.Path + path
	u.RawQuery = query.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, r.requestError(path, err, start)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := r.client.Do(req)
	if err != nil {
		return nil, r.requestError(path, err, start)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, r.statusError(path, resp)
	}
	data, err := r.budget.read(resp.Body)
	if err != nil {
		return nil, r.requestError(path, err, start)
	}
	return data, nil
}

// requestError says why a request sent at start failed: no answer, or no
// whole answer in time, or a limit passed.
func (r *Reader) requestError(path string, err error, start time.Time) error {
	var limit *limitError
	var refused *refusedError
	switch {
	case errors.As(err, &limit):
		return fmt.Errorf("cluster %s: GET %s: %v", r.Cluster, path, limit)
	case errors.As(err, &refused):
		return fmt.Errorf("cluster %s: %v", r.Cluster, refused)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("cluster %s: GET %s: %w: no whole answer within %s", r.Cluster, path, ErrUnreachable, r.within(start))
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("cluster %s: GET %s: %w", r.Cluster, path, err)
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err // the URL is the server's, named below
	}
	if !noAnswer(err) {
		// The transport's own failure, before any connection: a
		// credential plugin, a proxy setting.
		return fmt.Errorf("cluster %s: GET %s: %v", r.Cluster, path, err)
	}
	return fmt.Errorf("cluster %s: GET %s: %w at %s: %v", r.Cluster, path, ErrUnreachable, r.serverURL(), err)
}

// noAnswer reports whether err says that the server did not answer, or
// not as a server of the cluster: no connection, no name, no TLS
// handshake with the certificate the kubeconfig trusts, a connection
// closed before the answer.
func noAnswer(err error) bool {
	var netErr net.Error
	var record tls.RecordHeaderError
	var verify *tls.CertificateVerificationError
	var authority x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	return errors.As(err, &netErr) || errors.As(err, &record) || errors.As(err, &verify) ||
		errors.As(err, &authority) || errors.As(err, &hostname) || errors.As(err, &invalid) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET)
}

// within says which time a request sent at start ran out of: its own
// timeout, the Reader's, or its caller's.
func (r *Reader) within(start time.Time) string {
	switch {
	case time.Since(start) >= r.timeout:
		return r.timeout.String()
	case time.Until(r.deadline) <= 0:
		return "the time given to reading the cluster"
	}
	return "the caller's deadline"
}

// statusError is the error of a response other than 200 OK, with the
// message of the Status the apiserver answers with, or the start of the
// body of any other server.
func (r *Reader) statusError(path string, resp *http.Response) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, errorBodyLimit))
	var status struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	}
	detail := ""
	if json.Unmarshal(body, &status) == nil && status.Kind == "Status" && status.Message != "" {
		detail = status.Message
	} else if text := strings.TrimSpace(string(body)); text != "" {
		if len(text) > 200 {
			text = text[:200] + "..."
		}
		detail = fmt.Sprintf("%q", text)
	}
	msg := fmt.Sprintf("cluster %s: GET %s: %s", r.Cluster, path, resp.Status)
	if detail != "" {
		msg += ": " + detail
	}
	return &statusError{code: resp.StatusCode, msg: msg}
}

// statusError is a request the server answered with a status other than
// 200 OK: 401 and 403 for credentials, 404 for what it does not serve.
type statusError struct {
	code int
	msg  string
}

func (e *statusError) Error() string { return e.msg }
