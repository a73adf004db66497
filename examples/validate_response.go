package examples

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// exemptStatus reports whether a status may be sent though the operation
// does not declare it: 405 and 415, which the HTTP contract itself gives,
// and 401 for an operation that requires credentials.
func exemptStatus(op *spec.Operation, status int) bool {
	switch status {
	case http.StatusMethodNotAllowed, http.StatusUnsupportedMediaType:
		return true
	case http.StatusUnauthorized:
		return op.Security != nil && len(op.Security.Alternatives) > 0
	}
	return false
}

// response checks the example's response against what op declares for its
// status.
func (x *exampleCheck) response(op *spec.Operation) {
	resp := x.ex.Response
	if resp == nil || resp.Status == 0 {
		return
	}
	declared := x.k.c.Response(op, resp.Status)
	if declared == nil {
		if exemptStatus(op, resp.Status) {
			return
		}
		var list []string
		for _, r := range op.Responses {
			list = append(list, r.Status)
		}
		x.add(CodeStatusUndeclared, x.respSegs("status"), "undeclared", fmt.Sprintf("status %d is not declared by %s %s (it declares %s)", resp.Status, strings.ToUpper(op.Method), op.Path, strings.Join(list, ", ")), x.k.locate(append(with(op.Source), "responses")))
		return
	}
	if declared.Status == "default" {
		if near := nearSuccess(op, resp.Status); near != "" {
			// default beside declared successes describes the other
			// outcomes: a success it alone covers is more likely a slip
			// than a response held to the error's schema (nor repaired to
			// fit it).
			x.add(CodeStatusUndeclared, x.respSegs("status"), "undeclared", fmt.Sprintf("status %d is not declared by %s %s: only its default response covers it (did you mean %s?)", resp.Status, strings.ToUpper(op.Method), op.Path, near), x.k.locate(append(with(op.Source), "responses")))
			return
		}
		// Whatever is found of the response, say which response it is
		// held to.
		from := len(x.out)
		defer func() {
			for i := from; i < len(x.out); i++ {
				x.out[i].Message += fmt.Sprintf(" (status %d matches the default response)", resp.Status)
			}
		}()
	}
	cres := &contract.Response{Status: resp.Status, Header: http.Header{}, Method: x.ex.Request.Method}
	for _, h := range resp.Headers {
		v := x.p.value(h.Value, x.respSegs("headers", h.Name))
		if list, ok := v.([]any); ok {
			for _, it := range list {
				cres.Header.Add(h.Name, contract.InlineText(it))
			}
			continue
		}
		cres.Header.Add(h.Name, contract.InlineText(v))
	}
	var direct *spec.MediaType
	var body any
	if resp.Body != nil {
		body = x.p.value(resp.Body, x.respSegs("body"))
		ct := cres.Header.Get("Content-Type")
		if ct == "" {
			ct = responseType(declared, body)
			if ct != "" {
				cres.Header.Set("Content-Type", ct)
			}
		}
		data, ok := encodeBody(body, ct)
		if ok {
			cres.Body = data
		} else if key, found := contract.MatchMediaType(ct, mediaNames(declared)); found {
			direct = declared.Content[slices.IndexFunc(declared.Content, func(m *spec.MediaType) bool { return m.Name == key })]
		} else {
			cres.Body = []byte(notationText) // the Content-Type is checked on a body
		}
	}
	for _, pr := range x.k.c.CheckResponse(op, cres) {
		x.responseProblem(pr, direct != nil)
	}
	if direct != nil && direct.Schema != nil {
		sc, err := x.k.schemas.Compile(direct.Schema, direct.SchemaSource)
		if err != nil {
			return
		}
		for _, sp := range sc.Validate(body, schema.Response) {
			segs := x.respSegs(append([]any{"body"}, sp.Path...)...)
			if x.p.holes.hides(segs, sp.Keyword) || sp.Keyword == "required" && x.ex.Partial {
				continue
			}
			x.addProblem(CodeBodyInvalid, segs, contract.Problem{In: contract.InBody, Path: sp.Path, Keyword: sp.Keyword,
				Message: "response body " + schema.JSONPath(sp.Path) + ": " + sp.Message, Schema: sp.Schema}, schema.Response)
		}
	}
}

// nearSuccess is, for a 2xx status that only default covers, the status
// of the operation's declared success nearest to it ("200"); "" when the
// status is not a success or the operation declares none (default is
// then its success).
func nearSuccess(op *spec.Operation, status int) string {
	if status < 200 || status > 299 {
		return ""
	}
	best, dist := "", 1000
	for _, r := range op.Responses {
		code, err := strconv.Atoi(r.Status)
		if err != nil || code < 200 || code > 299 {
			continue
		}
		if d := max(code-status, status-code); d < dist {
			best, dist = r.Status, d
		}
	}
	return best
}

// responseProblem turns a problem the contract found with the response
// into a finding; direct is set when the body was left to its schema.
func (x *exampleCheck) responseProblem(pr contract.Problem, direct bool) {
	resp := x.ex.Response
	if pr.Keyword == "required" && (x.ex.Partial || pr.In == contract.InHeader || pr.In == contract.InBody && (resp.Body == nil || direct)) {
		return
	}
	var segs []any
	code := CodeParamInvalid
	switch pr.In {
	case contract.InHeader:
		if h := resp.Header(pr.Key); h != nil {
			segs = with(x.respSegs("headers", h.Name), pr.Path...)
		} else {
			segs = x.respSegs("headers")
		}
	case contract.InBody:
		code = CodeBodyInvalid
		segs = x.respSegs(append([]any{"body"}, pr.Path...)...)
	case contract.InContentType:
		code = CodeContentType
		segs = x.respSegs()
		if h := resp.Header("Content-Type"); h != nil {
			segs = x.respSegs("headers", h.Name)
		}
	case contract.InStatus:
		code = CodeStatusUndeclared
		segs = x.respSegs("status")
	default:
		segs = x.respSegs()
	}
	if x.p.holes.hides(segs, pr.Keyword) {
		return
	}
	x.addProblem(code, segs, pr, schema.Response)
}

func mediaNames(r *spec.Response) []string {
	out := make([]string, len(r.Content))
	for i, m := range r.Content {
		out[i] = m.Name
	}
	return out
}

// responseType picks the media type a response example without a
// Content-Type is sent as: the first JSON one for a structured body, else
// the first declared.
func responseType(r *spec.Response, body any) string {
	if len(r.Content) == 0 {
		return ""
	}
	if _, isString := body.(string); !isString {
		for _, m := range r.Content {
			if isJSONType(m.Name) {
				return m.Name
			}
		}
	}
	return r.Content[0].Name
}

// isJSONType reports whether a media type is JSON or a +json type.
func isJSONType(mt string) bool {
	mt = strings.ToLower(mt)
	base, _, _ := strings.Cut(mt, ";")
	base = strings.TrimSpace(base)
	return base == "application/json" || strings.HasSuffix(base, "+json") || strings.HasSuffix(base, "/json") || base == "*/*" || base == "application/*"
}

// encodeBody writes a body value as it travels in media type ct: JSON for
// JSON types, text for a string or a scalar in a text type. ok is false
// for a structured value in another type (XML, a form), which only its
// schema can check.
func encodeBody(v any, ct string) ([]byte, bool) {
	if ct == "" || isJSONType(ct) {
		b, err := json.Marshal(v)
		return b, err == nil
	}
	switch v := v.(type) {
	case string:
		return []byte(v), true
	case map[string]any, []any:
		return nil, false
	}
	return []byte(contract.InlineText(v)), true
}
