package server

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// ProblemTypes is where each problem type is documented; a problem's type
// is this URL followed by its kind (a heading of docs/lint-server.md).
const ProblemTypes = "https://github.com/specgate/specgate/blob/main/docs/lint-server.md#"

// Problem kinds, each with its status.
const (
	kindBadRequest        = "bad-request"            // 400
	kindNotFound          = "not-found"              // 404
	kindMethodNotAllowed  = "method-not-allowed"     // 405
	kindTooLarge          = "request-too-large"      // 413
	kindUnsupportedMedia  = "unsupported-media-type" // 415
	kindUnprocessableSpec = "unprocessable-spec"     // 422
	kindRateLimited       = "rate-limited"           // 429
	kindInternal          = "internal-error"         // 500
	kindFetchFailed       = "fetch-failed"           // 502
	kindFetchRefused      = "fetch-refused"          // 502
	kindOverloaded        = "overloaded"             // 503
	kindTimeout           = "timeout"                // 504
)

var problemTitles = map[string]string{
	kindBadRequest:        "The request body is not a valid lint request",
	kindNotFound:          "No such resource",
	kindMethodNotAllowed:  "Method not allowed",
	kindTooLarge:          "The request body is too large",
	kindUnsupportedMedia:  "The request body must be JSON",
	kindUnprocessableSpec: "The spec cannot be read",
	kindRateLimited:       "Too many requests",
	kindInternal:          "Internal error",
	kindFetchFailed:       "The spec could not be fetched",
	kindFetchRefused:      "The spec URL points to a forbidden address",
	kindOverloaded:        "The server is busy",
	kindTimeout:           "The request took too long",
}

// Problem is an RFC 9457 problem details document, with specgate's
// extension members.
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
	// RequestID is the X-Request-Id of the request, to find it in logs.
	RequestID string `json:"requestId,omitempty"`

	retryAfter int // seconds; sent as Retry-After when positive
}

func newProblem(status int, kind, detail string) *Problem {
	return &Problem{Type: ProblemTypes + kind, Title: problemTitles[kind], Status: status, Detail: detail}
}

// writeProblem sends p as application/problem+json.
func writeProblem(w http.ResponseWriter, r *http.Request, p *Problem) {
	p.Instance = r.URL.Path
	p.RequestID = requestID(r.Context())
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Set("Cache-Control", "no-store")
	if p.retryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(p.retryAfter))
	}
	noteProblem(r.Context(), p)
	w.WriteHeader(p.Status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(p)
}
