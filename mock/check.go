package mock

import (
	"net/http"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/spec"
)

// check runs the contract's checks of a request (credentials,
// Content-Type, Accept, parameters and body) and keeps what they decoded.
// The status of a failing request follows the decision table: 401, 415,
// 406, then for invalid parameters or body the operation's declared 422,
// else 400.
func (s *Server) check(ex *Exchange) (*contract.RequestResult, int) {
	r := ex.Request
	res := ex.op.api.contract.CheckRequest(&contract.Request{
		Method: r.Method, Path: r.URL.EscapedPath(), RawQuery: r.URL.RawQuery, Header: r.Header, Body: ex.Body,
	})
	if res.Route != nil {
		ex.Route = res.Route
	}
	ex.Params = res.Params
	if res.HasBody {
		ex.Value = res.Body
	}
	status := res.Status
	if status == http.StatusUnprocessableEntity && !s.declares(ex.op, http.StatusUnprocessableEntity) {
		status = http.StatusBadRequest
	}
	return res, status
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
// Accept header: the first acceptable one it declares (its first when the
// request has no Accept header); nil when it declares no content or none
// is acceptable.
func pickMedia(resp *spec.Response, accept string) *spec.MediaType {
	if resp == nil || len(resp.Content) == 0 {
		return nil
	}
	if accept == "" {
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

func isJSON(media string) bool {
	m := strings.ToLower(strings.TrimSpace(strings.SplitN(media, ";", 2)[0]))
	return m == "application/json" || strings.HasSuffix(m, "+json")
}
