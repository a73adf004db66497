package apitest

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/internal/httpx"
)

// runState is what one test's run keeps beside its result: the secrets
// to mask, the values its fixtures captured, the fixtures' exchanges.
type runState struct {
	ctx     context.Context
	plan    *Plan
	test    *Test
	secrets *secrets
	// store holds the values captured by (NAME:type) in fixtures.
	store map[string]any
	// fixtures are the fixtures run so far, with their raw exchanges.
	fixtures []fixtureRun
	// after runs the example's after fixtures once the test is judged.
	after func()
}

// fixtureRun is a fixture's result before masking.
type fixtureRun struct {
	result   FixtureResult
	attempts []httpx.Attempt
}

// userAgent is sent with every request that sets none.
const userAgent = "specgate"

// exec runs one test: its request is made (fixtures first for an
// example), sent with retries, and its response judged by every check.
func (p *Plan) exec(ctx context.Context, t *Test) *Result {
	start := time.Now()
	r := &Result{Start: start, Checks: p.checks.names()}
	st := &runState{ctx: ctx, plan: p, test: t, secrets: &secrets{}, store: map[string]any{}}
	defer func() { r.Duration = time.Since(start) }()
	// A defect of specgate on one test fails that test, with what it was,
	// rather than the run with a stack trace.
	defer func() {
		if v := recover(); v != nil {
			r.Outcome, r.Error = Failed, fmt.Sprintf("specgate could not run the test (a defect of specgate, please report it): %v", v)
		}
	}()
	if ctx.Err() != nil {
		r.Outcome, r.SkipReason = Skipped, "the run was interrupted"
		return r
	}
	prep, err := t.make(st)
	if err != nil {
		st.finish(r, nil, nil)
		switch {
		case errors.Is(err, errSkip):
			r.Outcome, r.SkipReason = Skipped, err.Error()
		default:
			r.Outcome, r.Error = Failed, err.Error()
		}
		return r
	}
	sp := t.op.spec
	req, err := prep.built.HTTPRequest(ctx, sp.base(t.op))
	if err != nil {
		st.finish(r, nil, nil)
		r.Outcome, r.Error = Failed, "the request cannot be sent: "+err.Error()
		return r
	}
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", userAgent)
	}
	if ex := prep.example; ex != nil {
		// $(request.…) in an expected response is the request as sent.
		ex.ctx.Request = sp.echo(t.op, req, prep.built, ex.sent)
	}
	attempts := sp.sender.Do(ctx, req, prep.built.Body)
	last := attempts[len(attempts)-1]
	var probes []httpx.Attempt
	var probeWhy []string // of each probe: the check and why
	checking := ""        // the check running
	switch {
	case last.Err != nil && ctx.Err() != nil:
		r.Outcome, r.SkipReason = Skipped, "the run was interrupted"
	case last.Err != nil:
		r.Outcome, r.Error = Failed, describeSendError(req, last.Err, sp.sender.Client)
	default:
		resp := last.Response
		r.Status = resp.StatusCode
		if len(last.Body) > 0 {
			r.contentType = resp.Header.Get("Content-Type")
			if mt, _, err := mime.ParseMediaType(r.contentType); err == nil {
				r.ResponseType = mt
			}
		}
		if d := sp.contract.Response(t.op.op, resp.StatusCode); d != nil {
			r.Matched = d.Status
		}
		c := &checkCase{ctx: ctx, t: t, prep: prep, status: resp.StatusCode, header: resp.Header, body: last.Body, truncated: last.Truncated}
		c.problems = sp.contract.CheckResponse(t.op.op, &contract.Response{Status: resp.StatusCode, Header: resp.Header, Body: last.Body, Method: req.Method})
		c.probe = func(why string, b *contract.BuiltRequest) *httpx.Attempt {
			preq, err := b.HTTPRequest(ctx, sp.base(t.op))
			if err != nil {
				return nil
			}
			preq.Header.Set("User-Agent", userAgent)
			as := sp.sender.Do(ctx, preq, b.Body)
			probes = append(probes, as...)
			for range as {
				probeWhy = append(probeWhy, checking+": "+why)
			}
			return &as[len(as)-1]
		}
		for _, ch := range p.checks {
			checking = ch.Name
			if f := ch.run(c); f != nil {
				f.Check = ch.Name
				r.Failures = append(r.Failures, *f)
			}
		}
		r.Outcome = Passed
		if len(r.Failures) > 0 {
			r.Outcome = Failed
		}
		if reason := last.Reason; reason != "" && len(r.Failures) > 0 {
			r.Failures[0].Message += " (" + reason + ")"
		}
		if (r.Status == http.StatusUnauthorized || r.Status == http.StatusForbidden) && len(r.Failures) > 0 && len(prep.placeholders) > 0 {
			r.Failures[0].Message += fmt.Sprintf(" (the request carried the placeholder credential of %s, none being given: %s)",
				strings.Join(prep.placeholders, ", "), howToGiveCredentials(prep.placeholders))
		}
	}
	if st.after != nil {
		st.after()
	}
	st.finish(r, attempts, probes)
	for i := range r.Probes {
		r.Probes[i].Probe = probeWhy[i]
	}
	if r.Outcome == Passed {
		for _, f := range r.Fixtures {
			if f.Outcome == Failed {
				r.Outcome = Failed
				r.Error = fmt.Sprintf("after fixture %d failed: %s", f.Index+1, f.Message)
				break
			}
		}
	}
	return r
}

// echo is the request as an example's $(request.…) reads it: the method,
// the whole path sent, its path parameters, query, headers and the body's
// value.
func (sp *specPlan) echo(o *operation, req *http.Request, b *contract.BuiltRequest, body any) *examples.EchoRequest {
	e := &examples.EchoRequest{Method: req.Method, Path: req.URL.Path, PathParams: map[string]string{},
		Query: req.URL.Query(), Headers: req.Header.Clone(), Body: body}
	if rt := sp.routeValues(o, req.Method, b.Path); rt != nil {
		for _, p := range rt.PathParams {
			e.PathParams[p.Name] = p.Value
		}
	}
	return e
}

// base is the URL the operation's path is joined to (see Options.BaseURL):
// a base URL without a path gets the operation's server prefix, and one
// with a path, "/" included, replaces it (http://svc/ tests a service
// mounted at the root).
func (sp *specPlan) base(o *operation) string {
	b := strings.TrimRight(sp.baseURL.String(), "/")
	if sp.baseURL.Path == "" {
		return b + strings.TrimRight(sp.contract.Prefix(o.op), "/")
	}
	return b
}

// describeSendError says why a request got no response, without Go's
// wrapping.
func describeSendError(req *http.Request, err error, client *http.Client) string {
	target := req.Method + " " + req.URL.Redacted()
	if httpx.IsTimeout(err) {
		if client != nil && client.Timeout > 0 {
			return fmt.Sprintf("%s: no response within %s", target, client.Timeout)
		}
		return target + ": no response in time"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Sprintf("%s: the service could not be reached: %v", target, err)
}

// finish puts the exchanges of the test and of its fixtures in the
// result, with every secret masked: tokens a fixture captured are known
// only once the test's request used them.
func (st *runState) finish(r *Result, attempts, probes []httpx.Attempt) {
	for _, a := range attempts {
		r.Attempts = append(r.Attempts, st.exchange(a))
	}
	for _, a := range probes {
		r.Probes = append(r.Probes, st.exchange(a))
	}
	for _, f := range st.fixtures {
		res := f.result
		if n := len(f.attempts); n > 0 {
			res.Exchange = st.exchange(f.attempts[n-1])
		}
		res.Message = st.secrets.mask(res.Message)
		r.Fixtures = append(r.Fixtures, res)
	}
	r.Error = st.secrets.mask(r.Error)
	for i := range r.Failures {
		r.Failures[i].Message = st.secrets.mask(r.Failures[i].Message)
		for j := range r.Failures[i].Problems {
			r.Failures[i].Problems[j].Message = st.secrets.mask(r.Failures[i].Problems[j].Message)
		}
	}
}

// exchange converts an attempt for reports, secrets masked.
func (st *runState) exchange(a httpx.Attempt) Exchange {
	ex := Exchange{Start: a.Start, Duration: a.Duration, Retry: a.Reason}
	if a.Request != nil {
		ex.Request = HTTPRequest{Method: a.Request.Method, URL: st.secrets.mask(a.Request.URL.String()),
			Headers: st.headers(a.Request.Header), Body: st.body(a.RequestBody, len(a.RequestBody))}
	}
	if a.Err != nil {
		ex.Error = st.secrets.mask(a.Err.Error())
	}
	if a.Response != nil {
		b := st.body(a.Body, len(a.Body))
		if b != nil && a.Truncated {
			b.Truncated = true
		}
		ex.Response = &HTTPResponse{Status: a.Response.StatusCode, Headers: st.headers(a.Response.Header), Body: b}
	}
	return ex
}

// headers lists headers by name, values masked.
func (st *runState) headers(h http.Header) []Header {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []Header
	for _, k := range names {
		for _, v := range h[k] {
			out = append(out, Header{Name: k, Value: st.secrets.maskHeader(k, v)})
		}
	}
	return out
}

// body keeps a body for reports, secrets masked.
func (st *runState) body(data []byte, size int) *Body {
	masked := []byte(st.secrets.mask(string(data)))
	if size == len(data) {
		size = len(masked)
	}
	return bodyOf(masked, size)
}
