package server

import "github.com/specgate/specgate/internal/httpx"

// ProblemTypes is where each problem type is documented; a problem's type
// is this URL followed by its kind (a heading of docs/lint-server.md).
const ProblemTypes = "https://github.com/specgate/specgate/blob/main/docs/lint-server.md#"

// Problem kinds, each with its status.
const (
	kindBadRequest        = httpx.KindBadRequest       // 400
	kindNotFound          = httpx.KindNotFound         // 404
	kindMethodNotAllowed  = httpx.KindMethodNotAllowed // 405
	kindTooLarge          = httpx.KindTooLarge         // 413
	kindUnsupportedMedia  = httpx.KindUnsupportedMedia // 415
	kindUnprocessableSpec = "unprocessable-spec"       // 422
	kindRateLimited       = "rate-limited"             // 429
	kindInternal          = httpx.KindInternal         // 500
	kindFetchFailed       = "fetch-failed"             // 502
	kindFetchRefused      = "fetch-refused"            // 403
	kindOverloaded        = "overloaded"               // 503
	kindTimeout           = "timeout"                  // 504
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

// Problem is an RFC 9457 problem details document (see httpx.Problem).
type Problem = httpx.Problem

// problems are the lint server's problem types.
var problems = &httpx.Catalog{Base: ProblemTypes, Titles: problemTitles}
