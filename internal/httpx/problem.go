package httpx

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// Problem kinds every specgate server answers with the same meaning; a
// server's Catalog gives each its title and documentation URL.
const (
	KindBadRequest       = "bad-request"            // 400
	KindNotFound         = "not-found"              // 404
	KindMethodNotAllowed = "method-not-allowed"     // 405
	KindTooLarge         = "request-too-large"      // 413
	KindUnsupportedMedia = "unsupported-media-type" // 415
	KindInternal         = "internal-error"         // 500
)

// Problem is an RFC 9457 problem details document, with specgate's
// extension members. Members are written in the order of the fields, and
// those left empty are omitted.
type Problem struct {
	Type     string `json:"type"`
	Title    string `json:"title"`
	Status   int    `json:"status"`
	Detail   string `json:"detail,omitempty"`
	Instance string `json:"instance,omitempty"`
	// Where in the request body or the spec the problem is, when known.
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	// Field names the request member at fault.
	Field string `json:"field,omitempty"`
	// Allowed lists the valid values of Field, when there is a fixed set.
	Allowed []string `json:"allowed,omitempty"`
	// Errors lists each failure found in the request, with where it is.
	Errors []Issue `json:"errors,omitempty"`
	// RequestID is the X-Request-Id of the request, to find it in logs.
	RequestID string `json:"requestId,omitempty"`

	// RetryAfter, in seconds, is sent as the Retry-After header when
	// positive.
	RetryAfter int `json:"-"`
}

// Issue is one failure of a request against its contract: where it is
// and what is wrong.
type Issue struct {
	// In is the part of the request: path, query, header, cookie or body.
	In string `json:"in"`
	// Name is the parameter or header, for the parts other than the body.
	Name string `json:"name,omitempty"`
	// Path is the JSON path of the failing value within the part's value
	// ("$" for the value itself, "$.items[2].id" within it).
	Path string `json:"path"`
	// Keyword is the failing schema keyword (required, type, …), when a
	// schema failed.
	Keyword string `json:"keyword,omitempty"`
	Message string `json:"message"`
}

// Catalog is a server's problem types: Base is the documentation URL whose
// fragments name the kinds (a problem's type is Base followed by its
// kind), and Titles gives each kind its title.
type Catalog struct {
	Base   string
	Titles map[string]string
}

// New is a problem of the catalog's kind with its title.
func (c *Catalog) New(status int, kind, detail string) *Problem {
	title, ok := c.Titles[kind]
	if !ok {
		title = http.StatusText(status)
	}
	return &Problem{Type: c.Base + kind, Title: title, Status: status, Detail: detail}
}

// Kind is the kind a problem's type names: its fragment, or the whole
// type when it has none.
func (p *Problem) Kind() string {
	if i := strings.LastIndexByte(p.Type, '#'); i >= 0 {
		return p.Type[i+1:]
	}
	return p.Type
}

// WriteProblem sends p as application/problem+json, with the request's
// path as its instance and the request's id, and notes it on the
// request's access log line.
func WriteProblem(w http.ResponseWriter, r *http.Request, p *Problem) {
	p.Instance = r.URL.Path
	p.RequestID = RequestID(r.Context())
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Set("Cache-Control", "no-store")
	if p.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(p.RetryAfter))
	}
	noteProblem(r, p)
	w.WriteHeader(p.Status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(p)
}
