package apitest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/specgate/specgate/examples"
)

// runFixture sends one fixture's request and checks its response: the
// status it expects (any 2xx when it names none) and its body, whose
// captures are stored for the requests that follow. A failed fixture is
// an error of the test.
func (p *Plan) runFixture(s *runState, ctx *examples.Context, f *examples.Fixture, o *operation) error {
	run := fixtureRun{result: FixtureResult{Phase: f.When, Index: f.Index, Outcome: Passed}}
	fail := func(format string, args ...any) error {
		run.result.Outcome = Failed
		run.result.Message = fmt.Sprintf(format, args...)
		s.fixtures = append(s.fixtures, run)
		return fmt.Errorf("%s fixture %d (%s) failed: %s", f.When, f.Index+1, f.Loc, run.result.Message)
	}
	req, body, err := p.fixtureRequest(s, ctx, f, o)
	if err != nil {
		return fail("%v", err)
	}
	attempts := o.spec.sender.Do(s.ctx, req, body)
	run.attempts = attempts
	last := attempts[len(attempts)-1]
	if last.Err != nil {
		return fail("%s", describeSendError(req, last.Err, o.spec.sender.Client))
	}
	status := last.Response.StatusCode
	want := 0
	if f.Response != nil {
		want = f.Response.Status
	}
	if want == 0 && (status < 200 || status > 299) {
		return fail("expected a 2xx, got %d", status)
	}
	if want != 0 && status != want {
		return fail("expected %d, got %d", want, status)
	}
	if f.Response != nil && f.Response.Body != nil {
		actual := decodeBody(last.Body, last.Response.Header.Get("Content-Type"))
		res := ctx.Check(f.Response.Body, actual, examples.Subset)
		for k, v := range res.Captured {
			s.store[k] = v
			run.result.Captures = append(run.result.Captures, k)
		}
		sort.Strings(run.result.Captures)
		if !res.OK() {
			msgs := make([]string, len(res.Problems))
			for i, pr := range res.Problems {
				msgs[i] = pr.Path + ": " + pr.Message
			}
			return fail("the response does not match: %s", strings.Join(msgs, "; "))
		}
	}
	s.fixtures = append(s.fixtures, run)
	return nil
}

// fixtureRequest builds a fixture's request as written: it may go to
// another service (its baseUrl), so no operation's contract serializes
// it. Query values are sent in form style; a body as JSON, text or form
// fields.
func (p *Plan) fixtureRequest(s *runState, ctx *examples.Context, f *examples.Fixture, o *operation) (*http.Request, []byte, error) {
	r := f.Request
	if r == nil {
		return nil, nil, errors.New("the fixture has no http-request")
	}
	base, err := evalString(ctx, r.BaseURL, "$.http-request.baseUrl")
	if err != nil {
		return nil, nil, err
	}
	if base == "" {
		base = o.spec.base(o)
	}
	path, err := evalString(ctx, r.Path, "$.http-request.path")
	if err != nil {
		return nil, nil, err
	}
	q := url.Values{}
	for _, prm := range r.Query {
		val, err := ctx.EvalAt(prm.Value, "$.http-request.query."+prm.Name)
		if err != nil {
			return nil, nil, err
		}
		switch val := val.(type) {
		case nil:
			// undefined (RFC 6570 §2.3): no parameter
		case []any:
			for _, it := range val {
				q.Add(prm.Name, headerText(it))
			}
		default:
			q.Add(prm.Name, headerText(val))
		}
	}
	target := strings.TrimRight(base, "/") + path
	if len(q) > 0 {
		sep := "?"
		if strings.Contains(target, "?") {
			sep = "&"
		}
		target += sep + q.Encode()
	}
	method := r.Method
	if method == "" {
		method = http.MethodGet
	}
	req, err := http.NewRequestWithContext(s.ctx, method, target, nil)
	if err != nil {
		return nil, nil, err
	}
	for _, h := range r.Headers {
		val, err := ctx.EvalAt(h.Value, "$.http-request.headers."+h.Name)
		if err != nil {
			return nil, nil, err
		}
		if val == nil {
			continue // undefined: no header
		}
		text := headerText(val)
		if list, ok := val.([]any); ok {
			// A list is one field value, its items separated by commas
			// (RFC 9110 §5.3), as OpenAPI's default simple style writes it.
			items := make([]string, len(list))
			for i, it := range list {
				items[i] = headerText(it)
			}
			text = strings.Join(items, ",")
		}
		req.Header.Set(h.Name, text)
		if secretHeaders[strings.ToLower(h.Name)] {
			s.secrets.add(text)
		}
	}
	req.Header.Set("User-Agent", userAgent)
	var body []byte
	switch {
	case r.Body != nil:
		val, err := ctx.EvalAt(r.Body, "$.http-request.body")
		if err != nil {
			return nil, nil, err
		}
		ct := req.Header.Get("Content-Type")
		if str, ok := val.(string); ok && ct != "" && !strings.Contains(ct, "json") {
			body = []byte(str)
		} else {
			if body, err = json.Marshal(val); err != nil {
				return nil, nil, err
			}
			if ct == "" {
				req.Header.Set("Content-Type", "application/json")
			}
		}
	case r.FormFields != nil:
		form := url.Values{}
		for _, fld := range r.FormFields {
			val, err := ctx.EvalAt(fld.Value, "$.http-request.form-fields."+fld.Name)
			if err != nil {
				return nil, nil, err
			}
			if val != nil {
				form.Add(fld.Name, headerText(val))
			}
		}
		body = []byte(form.Encode())
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	case r.Multipart != nil:
		return nil, nil, errors.New("multipart requests are not supported in fixtures")
	}
	return req, body, nil
}

// decodeBody reads a response body as a JSON value when it is JSON, else
// as text.
func decodeBody(body []byte, contentType string) any {
	mt, _, _ := mime.ParseMediaType(contentType)
	trimmed := bytes.TrimSpace(body)
	if isJSONType(mt) || mt == "" && len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err == nil {
			return v
		}
	}
	return string(body)
}
