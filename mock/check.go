package mock

import (
	"net/http"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/spec"
)

// check runs the contract's checks of a request (credentials,
// Content-Type, Accept, parameters and body) and keeps what they decoded.
// The status of a failing request is the contract's (RequestResult.Status):
// 401, 415, 406, then for invalid parameters or body 400, or 422 where
// the operation declares 422 and not 400.
func (s *Server) check(ex *Exchange) *contract.RequestResult {
	r := ex.Request
	res := ex.op.api.contract.CheckRequest(&contract.Request{
		Method: ex.method, Path: r.URL.EscapedPath(), RawQuery: r.URL.RawQuery, Header: r.Header, Body: ex.Body,
	})
	if res.Route != nil {
		ex.Route = res.Route
	}
	ex.Params = res.Params
	if res.HasBody && res.Body != nil {
		ex.Value, ex.hasValue = res.Body, true
	}
	return res
}

// kindOf is the problem kind of a refusal's status.
func kindOf(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return kindUnauthorized
	case http.StatusUnsupportedMediaType:
		return kindUnsupportedMedia
	case http.StatusNotAcceptable:
		return kindNotAcceptable
	case http.StatusUnprocessableEntity:
		return kindUnprocessable
	case http.StatusNotFound:
		return kindNotFound
	case http.StatusMethodNotAllowed:
		return kindMethodNotAllowed
	}
	return kindBadRequest
}

// pickMedia is the media type of a response to send for the request's
// Accept header: the acceptable one it declares that the Accept header
// prefers; without an Accept header (or with */* only), its first JSON
// media type, else its first. nil when it declares no content or none is
// acceptable.
func pickMedia(resp *spec.Response, accept string) *spec.MediaType {
	if resp == nil || len(resp.Content) == 0 {
		return nil
	}
	if a := strings.TrimSpace(accept); a == "" || a == "*/*" {
		for _, m := range resp.Content {
			if isJSON(m.Name) {
				return m
			}
		}
		return resp.Content[0]
	}
	name, ok := contract.NegotiateResponse(resp, accept)
	if !ok {
		return nil
	}
	for _, m := range resp.Content {
		if m.Name == name {
			return m
		}
	}
	return resp.Content[0]
}

func isXML(media string) bool {
	m := strings.ToLower(strings.TrimSpace(strings.SplitN(media, ";", 2)[0]))
	return m == "application/xml" || m == "text/xml" || strings.HasSuffix(m, "+xml")
}

func isJSON(media string) bool {
	m := strings.ToLower(strings.TrimSpace(strings.SplitN(media, ";", 2)[0]))
	return m == "application/json" || strings.HasSuffix(m, "+json")
}
