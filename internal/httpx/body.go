package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// ErrTooLarge is returned by ReadBody for a body beyond its limit.
var ErrTooLarge = errors.New("request body too large")

// ReadBody reads the request's body, at most limit bytes. A body that
// declares a larger Content-Length is refused before any of it is read; a
// body without one is read up to the limit and refused there, so memory
// stays bounded by the limit whatever the client sends. Either way the
// error is ErrTooLarge, and the connection is closed after the response
// (the rest of the body is never read).
func ReadBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	if r.ContentLength > limit {
		w.Header().Set("Connection", "close")
		return nil, ErrTooLarge
	}
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength))
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, ErrTooLarge
		}
		return nil, fmt.Errorf("reading the request body: %w", err)
	}
	return buf.Bytes(), nil
}

// ReadBody reads the request's body as the function ReadBody does; when it
// cannot, the problem is the answer to send: 413 for a body beyond limit
// (flag names the option that sets it), else 400.
func (c *Catalog) ReadBody(w http.ResponseWriter, r *http.Request, limit int64, flag string) ([]byte, *Problem) {
	body, err := ReadBody(w, r, limit)
	switch {
	case err == nil:
		return body, nil
	case errors.Is(err, ErrTooLarge):
		return nil, c.TooLarge(limit, flag)
	}
	return nil, c.New(http.StatusBadRequest, KindBadRequest, err.Error())
}

// TooLarge is the 413 problem of a body beyond limit, whose flag sets it.
func (c *Catalog) TooLarge(limit int64, flag string) *Problem {
	return c.New(http.StatusRequestEntityTooLarge, KindTooLarge,
		fmt.Sprintf("the request body is larger than the %s limit (%s)", FormatBytes(limit), flag))
}

// FormatBytes writes a size in the largest binary unit it reaches: 512
// bytes, 16 KiB, 1.5 MiB, 2 GiB.
func FormatBytes(n int64) string {
	for _, u := range []struct {
		name  string
		shift uint
	}{{"GiB", 30}, {"MiB", 20}, {"KiB", 10}} {
		switch {
		case n >= 1<<u.shift && n%(1<<u.shift) == 0:
			return fmt.Sprintf("%d %s", n>>u.shift, u.name)
		case n >= 1<<u.shift:
			return fmt.Sprintf("%.1f %s", float64(n)/float64(int64(1)<<u.shift), u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// WriteJSON answers status with v as indented JSON of contentType, not to
// be cached; a value that does not encode is a 500 instead.
func WriteJSON(w http.ResponseWriter, status int, contentType string, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}
