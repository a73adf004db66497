package contract

import (
	"fmt"
	"io"
	"net/http"
)

// TooLargeError is a body longer than the limit a server reads (it
// answers 413 Content Too Large).
type TooLargeError struct {
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("request body is larger than %d bytes", e.Limit)
}

// Status is the status a server answers: 413.
func (e *TooLargeError) Status() int { return http.StatusRequestEntityTooLarge }

// ReadBody reads r to its end, but no more than limit bytes: a longer body
// is a *TooLargeError, found after reading limit+1 bytes at most. A limit
// of zero or less reads without bound.
func ReadBody(r io.Reader, limit int64) ([]byte, error) {
	if r == nil {
		return nil, nil
	}
	if limit <= 0 {
		return io.ReadAll(r)
	}
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &TooLargeError{Limit: limit}
	}
	return b, nil
}

// NewRequest reads an incoming request for CheckRequest, its body bounded
// by limit (see ReadBody; a Content-Length above the limit fails before
// reading). The body of r is consumed.
func NewRequest(r *http.Request, limit int64) (*Request, error) {
	req := &Request{Method: r.Method, Path: r.URL.EscapedPath(), RawQuery: r.URL.RawQuery, Header: r.Header}
	if limit > 0 && r.ContentLength > limit {
		return req, &TooLargeError{Limit: limit}
	}
	body, err := ReadBody(r.Body, limit)
	req.Body = body
	return req, err
}
