package mock

import (
	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/httpx"
)

// ProblemTypes is where each of the mock's problem types is documented: a
// problem's type is this URL followed by its kind (a heading of
// docs/mock.md).
const ProblemTypes = "https://github.com/specgate/specgate/blob/main/docs/mock.md#"

// Problem kinds of the mock, each with its status.
const (
	kindBadRequest       = httpx.KindBadRequest       // 400: invalid parameters or body
	kindUnauthorized     = "unauthorized"             // 401
	kindNotFound         = httpx.KindNotFound         // 404
	kindMethodNotAllowed = httpx.KindMethodNotAllowed // 405
	kindNotAcceptable    = "not-acceptable"           // 406
	kindTooLarge         = httpx.KindTooLarge         // 413
	kindUnsupportedMedia = httpx.KindUnsupportedMedia // 415
	kindUnprocessable    = "unprocessable-entity"     // 422: invalid, where the operation declares 422
	kindNoAnswer         = "no-answer"                // 400/404: no example or response satisfies a Prefer
	kindNoExample        = "no-matching-example"      // 400: strict examples, and none matches
	kindInternal         = httpx.KindInternal         // 500
	kindStateInvalid     = "state-invalid"            // 500: a stored resource no longer fits a response schema
	kindNoStateFile      = "no-state-file"            // 409: save asked for without --state-file
	kindConflict         = "conflict"                 // 409: a create with the id of a stored resource
	kindNoResource       = "no-resource"              // 404: the store holds no resource with the id a path names
	kindForeignKey       = "foreign-key"              // 400: a field of x-foreign-keys names no resource
	kindBadCursor        = "bad-cursor"               // 400: a list's cursor names no resource
)

var problems = &httpx.Catalog{Base: ProblemTypes, Titles: map[string]string{
	kindBadRequest:       "The request is not valid against the specification",
	kindUnauthorized:     "The request lacks the credentials the operation requires",
	kindNotFound:         "No operation of the specification matches the request",
	kindMethodNotAllowed: "The path does not declare the method",
	kindNotAcceptable:    "No response media type satisfies the Accept header",
	kindTooLarge:         "The request body is too large",
	kindUnsupportedMedia: "The operation does not accept the request's Content-Type",
	kindUnprocessable:    "The request is not valid against the specification",
	kindNoAnswer:         "The specification has no answer that the preferences ask for",
	kindNoExample:        "No example matches the request",
	kindInternal:         "Internal error",
	kindStateInvalid:     "The stored state does not fit the response's schema",
	kindNoStateFile:      "The mock has no state file to save to",
	kindConflict:         "A resource with that id exists already",
	kindNoResource:       "The store holds no resource with that id",
	kindForeignKey:       "A foreign key names no resource",
	kindBadCursor:        "The cursor names no resource",
}}

// issues converts the contract's problems into the problem document's
// errors member: where each failure is and what is wrong.
func issues(ps []contract.Problem) []httpx.Issue {
	out := make([]httpx.Issue, len(ps))
	for i, p := range ps {
		out[i] = httpx.Issue{In: string(p.In), Name: p.Key, Path: p.JSONPath(), Keyword: p.Keyword, Message: p.Message}
	}
	return out
}
